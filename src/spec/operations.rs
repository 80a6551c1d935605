//! The spec's operation index ("Endpoints", "Operation index"): every
//! operation and its path. What each request body holds is `validate/`'s.

/// Every operation of the spec's operation index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// `/api/v1/payment/p2p/payin`: create a P2P payin request.
    P2pPayinCreate,
    /// `/api/v1/payment/p2p/payin/info`: get a P2P payin's status.
    P2pPayinInfo,
    /// `/api/v1/payment/p2p/payin/confirm`: confirm a successful transfer.
    P2pPayinConfirm,
    /// `/api/v1/payment/p2p/payin/cancel`: cancel a P2P payin request.
    P2pPayinCancel,
    /// `/api/v1/payment/p2p/payout`: create a payout request (to a card).
    P2pPayoutCreate,
    /// `/api/v1/payment/p2p/payout/info`: get a payout's status.
    P2pPayoutInfo,
    /// `/api/v1/payment/ecom/payin`: create an ECOM payin.
    EcomPayinCreate,
    /// `/api/v1/payment/ecom/payin/info`: get an ECOM payin's status.
    EcomPayinInfo,
    /// `/api/v1/payment/ecom/payin/confirm-3ds-result`: confirm the 3-D Secure result of an ECOM payin.
    EcomPayinConfirm3ds,
    /// `/api/v1/payment/ecom/payout`: create an ECOM payout.
    EcomPayoutCreate,
    /// `/api/v1/payment/ecom/payout/info`: get an ECOM payout's status.
    EcomPayoutInfo,
    /// `/api/v1/widget/payin`: create a widget payin.
    WidgetPayinCreate,
    /// `/api/v1/widget/payin/info`: get a widget payin's status.
    WidgetPayinInfo,
    /// `/api/v1/widget/payin/confirm`: confirm payment of a widget request.
    WidgetPayinConfirm,
    /// `/api/v1/widget/payin/cancel`: cancel a widget request.
    WidgetPayinCancel,
    /// `/api/v1/balance/info`: the project's balance.
    BalanceInfo,
    /// `/api/v1/bank/all`: the list of banks.
    BankAll,
}

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

    /// The path, exactly as in the spec's operation index.
    pub fn path(self) -> &'static str {
        match self {
            Operation::P2pPayinCreate => "/api/v1/payment/p2p/payin",
            Operation::P2pPayinInfo => "/api/v1/payment/p2p/payin/info",
            Operation::P2pPayinConfirm => "/api/v1/payment/p2p/payin/confirm",
            Operation::P2pPayinCancel => "/api/v1/payment/p2p/payin/cancel",
            Operation::P2pPayoutCreate => "/api/v1/payment/p2p/payout",
            Operation::P2pPayoutInfo => "/api/v1/payment/p2p/payout/info",
            Operation::EcomPayinCreate => "/api/v1/payment/ecom/payin",
            Operation::EcomPayinInfo => "/api/v1/payment/ecom/payin/info",
            Operation::EcomPayinConfirm3ds => "/api/v1/payment/ecom/payin/confirm-3ds-result",
            Operation::EcomPayoutCreate => "/api/v1/payment/ecom/payout",
            Operation::EcomPayoutInfo => "/api/v1/payment/ecom/payout/info",
            Operation::WidgetPayinCreate => "/api/v1/widget/payin",
            Operation::WidgetPayinInfo => "/api/v1/widget/payin/info",
            Operation::WidgetPayinConfirm => "/api/v1/widget/payin/confirm",
            Operation::WidgetPayinCancel => "/api/v1/widget/payin/cancel",
            Operation::BalanceInfo => "/api/v1/balance/info",
            Operation::BankAll => "/api/v1/bank/all",
        }
    }

    /// The operation at exactly this path. The two bank paths the spec names
    /// outside its index (`/api/v1/payment/p2p/bank/…`) are not operations here.
    pub fn from_path(path: &str) -> Option<Operation> {
        Operation::ALL.into_iter().find(|operation| operation.path() == path)
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
        assert_eq!(Operation::from_path("/api/v1/payment/p2p/bank/all"), None);
        assert_eq!(Operation::from_path("/api/v1/payment/p2p/payin/"), None);
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

    #[test]
    fn each_variant_documents_its_path() {
        let source = include_str!("operations.rs");
        for operation in Operation::ALL {
            let documented = source.lines().zip(source.lines().skip(1)).any(|(doc, variant)| {
                doc.trim().starts_with(&format!("/// `{}`: ", operation.path()))
                    && variant.trim() == format!("{operation:?},")
            });
            assert!(documented, "{operation:?}'s doc comment does not begin with its path");
        }
    }
}
