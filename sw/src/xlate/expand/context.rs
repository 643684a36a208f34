//! What the expansion of one instruction may consult: the summary pass's
//! result and the ABI's register plan.

use crate::xlate::abi::Layout;
use crate::xlate::summary::Summary;

/// What the expansion of one instruction may consult.
pub struct Context<'a> {
    /// The summary pass's result.
    pub summary: &'a Summary,
    /// Register and mode plan.
    pub layout: &'a Layout,
}
