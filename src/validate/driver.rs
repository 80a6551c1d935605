//! The field checks of a request body given as a tree: the walk over the
//! operation's schema (`super::walk`, `super::operations`), then its
//! cross-field rules (`super::cross_field`).

use super::{cross_field, walk, Findings, IssueValue};
use crate::json::Json;
use crate::spec::operations::Operation;

/// Runs the field checks, then the operation's cross-field rules.
pub(crate) fn check(operation: Operation, body: &Json, findings: &mut Findings) {
    let Json::Object(_) = body else {
        findings
            .error("", "WRONG_TYPE", format!("The request body must be a JSON object, found {}", body.kind()))
            .with_actual(IssueValue::text(body.kind()));
        return;
    };
    let read = walk::check_tree(operation.schema(), cross_field::has_rules(operation), body, findings);
    cross_field::check_operation(operation, &read, findings);
}
