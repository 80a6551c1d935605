//! The spec's operation index ("Endpoints", "Operation index") as the one table of
//! operations: a row per operation ([`OPERATIONS`]) with its path, the client's name
//! for it, the model of its answer, what its caller gives, whether it creates a
//! payment, its info operation and the state a confirm or cancel leads to. Its body's
//! schema is `validate/`'s (`Operation::coverage`, `Operation::schema_objects`).
//! `operationTable()` gives the rows to JS: the client's methods, the sandbox's routes,
//! the CLI, the debugger page and the `.d.ts` `OperationPath` union are made from them.

/// Every operation of the spec's operation index (its row in [`OPERATIONS`], in order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// Create a P2P payin request.
    P2pPayinCreate,
    /// Get a P2P payin's status.
    P2pPayinInfo,
    /// Confirm a successful transfer.
    P2pPayinConfirm,
    /// Cancel a P2P payin request.
    P2pPayinCancel,
    /// Create a payout request (to a card).
    P2pPayoutCreate,
    /// Get a payout's status.
    P2pPayoutInfo,
    /// Create an ECOM payin.
    EcomPayinCreate,
    /// Get an ECOM payin's status.
    EcomPayinInfo,
    /// Confirm the 3-D Secure result of an ECOM payin.
    EcomPayinConfirm3ds,
    /// Create an ECOM payout.
    EcomPayoutCreate,
    /// Get an ECOM payout's status.
    EcomPayoutInfo,
    /// Create a widget payin.
    WidgetPayinCreate,
    /// Get a widget payin's status.
    WidgetPayinInfo,
    /// Confirm payment of a widget request.
    WidgetPayinConfirm,
    /// Cancel a widget request.
    WidgetPayinCancel,
    /// The project's balance.
    BalanceInfo,
    /// The list of banks.
    BankAll,
}

/// What an operation answers: a StatusResponse, an info response, the balance, the bank list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Model {
    /// A StatusResponse.
    Status,
    /// An info response.
    Info,
    /// The project's balance.
    Balance,
    /// The bank list.
    Banks,
}

/// What the caller gives: the whole body, a payment's reference (project and payment ids),
/// or a project id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Takes {
    /// The body in the spec's shape.
    Body,
    /// `{ projectId, paymentId }`.
    Ref,
    /// `{ projectId }`.
    Project,
}

/// Where a confirm or a cancel leads, which its info operation can tell was reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The payment is paid (or a success).
    Confirm,
    /// The payment is declined.
    Cancel,
}

/// One row of the operation index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OperationRow {
    /// The operation of the row.
    pub operation: Operation,
    /// The path, exactly as in the spec's operation index.
    pub path: &'static str,
    /// Where the client hangs it: `p2p.payin.create` is `client.p2p.payin.create`.
    pub name: &'static str,
    /// What it answers.
    pub model: Model,
    /// What its caller gives.
    pub takes: Takes,
    /// Whether it creates a payment (then a store records it, and its info settles an unknown outcome).
    pub creates: bool,
    /// The info operation of the same kind of payment, for a create or a confirm or cancel.
    pub info: Option<Operation>,
    /// For a confirm or a cancel: the state it leads to.
    pub target: Option<Target>,
}

use Model::{Balance, Banks, Info, Status};
use Operation::*;
use Takes::{Body, Project, Ref};

const fn row(operation: Operation, path: &'static str, name: &'static str, model: Model, takes: Takes) -> OperationRow {
    OperationRow { operation, path, name, model, takes, creates: false, info: None, target: None }
}

impl OperationRow {
    const fn creates(self, info: Operation) -> OperationRow {
        OperationRow { creates: true, info: Some(info), ..self }
    }

    const fn leads_to(self, target: Target, info: Operation) -> OperationRow {
        OperationRow { target: Some(target), info: Some(info), ..self }
    }
}

/// The operation index, in the spec's order; row `i` is `Operation::ALL[i]`'s.
/// A new operation is one row here (and its variant above).
#[rustfmt::skip]
pub const OPERATIONS: [OperationRow; 17] = [
    row(P2pPayinCreate, "/api/v1/payment/p2p/payin", "p2p.payin.create", Status, Body).creates(P2pPayinInfo),
    row(P2pPayinInfo, "/api/v1/payment/p2p/payin/info", "p2p.payin.info", Info, Ref),
    row(P2pPayinConfirm, "/api/v1/payment/p2p/payin/confirm", "p2p.payin.confirm", Status, Ref).leads_to(Target::Confirm, P2pPayinInfo),
    row(P2pPayinCancel, "/api/v1/payment/p2p/payin/cancel", "p2p.payin.cancel", Status, Ref).leads_to(Target::Cancel, P2pPayinInfo),
    row(P2pPayoutCreate, "/api/v1/payment/p2p/payout", "p2p.payout.create", Status, Body).creates(P2pPayoutInfo),
    row(P2pPayoutInfo, "/api/v1/payment/p2p/payout/info", "p2p.payout.info", Info, Ref),
    row(EcomPayinCreate, "/api/v1/payment/ecom/payin", "ecom.payin.create", Status, Body).creates(EcomPayinInfo),
    row(EcomPayinInfo, "/api/v1/payment/ecom/payin/info", "ecom.payin.info", Info, Ref),
    row(EcomPayinConfirm3ds, "/api/v1/payment/ecom/payin/confirm-3ds-result", "ecom.payin.confirm3dsResult", Status, Ref),
    row(EcomPayoutCreate, "/api/v1/payment/ecom/payout", "ecom.payout.create", Status, Body).creates(EcomPayoutInfo),
    row(EcomPayoutInfo, "/api/v1/payment/ecom/payout/info", "ecom.payout.info", Info, Ref),
    row(WidgetPayinCreate, "/api/v1/widget/payin", "widget.payin.create", Status, Body).creates(WidgetPayinInfo),
    row(WidgetPayinInfo, "/api/v1/widget/payin/info", "widget.payin.info", Info, Ref),
    row(WidgetPayinConfirm, "/api/v1/widget/payin/confirm", "widget.payin.confirm", Status, Ref).leads_to(Target::Confirm, WidgetPayinInfo),
    row(WidgetPayinCancel, "/api/v1/widget/payin/cancel", "widget.payin.cancel", Status, Ref).leads_to(Target::Cancel, WidgetPayinInfo),
    row(BalanceInfo, "/api/v1/balance/info", "balance", Balance, Project),
    row(BankAll, "/api/v1/bank/all", "banks", Banks, Project),
];

// Row `i` is variant `i`'s, checked when the crate compiles.
const _: () = {
    let mut i = 0;
    while i < OPERATIONS.len() {
        assert!(OPERATIONS[i].operation as usize == i, "OPERATIONS is not in the order of Operation");
        i += 1;
    }
};

impl Operation {
    /// Every operation, in the order of the spec's operation index.
    pub const ALL: [Operation; 17] = [
        Operation::P2pPayinCreate,
        Operation::P2pPayinInfo,
        Operation::P2pPayinConfirm,
        Operation::P2pPayinCancel,
        Operation::P2pPayoutCreate,
        Operation::P2pPayoutInfo,
        Operation::EcomPayinCreate,
        Operation::EcomPayinInfo,
        Operation::EcomPayinConfirm3ds,
        Operation::EcomPayoutCreate,
        Operation::EcomPayoutInfo,
        Operation::WidgetPayinCreate,
        Operation::WidgetPayinInfo,
        Operation::WidgetPayinConfirm,
        Operation::WidgetPayinCancel,
        Operation::BalanceInfo,
        Operation::BankAll,
    ];

    /// Its row of [`OPERATIONS`] (row `i` is variant `i`'s, which the tests hold).
    pub fn row(self) -> &'static OperationRow {
        &OPERATIONS[self as usize]
    }

    /// The path, exactly as in the spec's operation index.
    pub fn path(self) -> &'static str {
        self.row().path
    }

    /// The operation at exactly this path. The two bank paths the spec names
    /// outside its index (`…/payment/p2p/bank/…`) are not operations here.
    pub fn from_path(path: &str) -> Option<Operation> {
        OPERATIONS.iter().find(|row| row.path == path).map(|row| row.operation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::spec_text::{spec, table};

    #[test]
    fn paths_round_trip_and_are_unique() {
        for operation in Operation::ALL {
            assert_eq!(Operation::from_path(operation.path()), Some(operation));
        }
        let mut paths: Vec<&str> = Operation::ALL.iter().map(|op| op.path()).collect();
        paths.sort_unstable();
        paths.dedup();
        assert_eq!(paths.len(), Operation::ALL.len());
        assert_eq!(Operation::from_path(&Operation::BankAll.path().replace("/bank/", "/payment/p2p/bank/")), None);
        assert_eq!(Operation::from_path(&format!("{}/", Operation::P2pPayinCreate.path())), None);
        for (i, operation) in Operation::ALL.into_iter().enumerate() {
            assert_eq!(OPERATIONS[i].operation, operation);
            assert_eq!(operation.row().operation, operation);
        }
    }

    /// The paths, in order, are the spec's operation index; and each variant's
    /// doc comment begins with its path (so the documentation is this table too).
    #[test]
    fn paths_are_the_spec_operation_index() {
        let Some(spec) = spec() else { return };
        let rows = table(&spec, "### Operation index");
        let listed: Vec<&str> = rows.iter().map(|row| row[2].as_str()).collect();
        let ours: Vec<&str> = Operation::ALL.iter().map(|op| op.path()).collect();
        assert_eq!(ours, listed);
        assert!(rows.iter().all(|row| row[1] == "POST"));
    }

    /// A create's and an action's info operation is an info of the same payments (its
    /// name's group), and only those have one.
    #[test]
    fn info_operations_are_of_the_same_group() {
        let group = |name: &str| name.rsplit_once('.').map(|(group, _)| group.to_owned());
        for row in OPERATIONS {
            assert_eq!(row.info.is_some(), row.creates || row.target.is_some(), "{:?}", row.operation);
            if let Some(info) = row.info {
                assert_eq!(info.row().model, Model::Info);
                assert_eq!(group(info.row().name), group(row.name));
            }
            assert_eq!(row.creates, row.takes == Takes::Body && row.model == Model::Status);
        }
    }
}
