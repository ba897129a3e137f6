//! Who a limit counts against: a signed-in person wherever they connect from, or else the
//! client's address. A person keeps one budget (actions per second, games in progress, search
//! time) across browsers and addresses, and people behind one address (a club, a school)
//! no longer share one.

use std::fmt;
use std::net::IpAddr;

/// The key of per-client limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ClientId {
    /// Someone not signed in, by IP address.
    Address(IpAddr),
    /// A signed-in account, by its number.
    Person(i64),
}

impl From<IpAddr> for ClientId {
    fn from(address: IpAddr) -> ClientId {
        ClientId::Address(address)
    }
}

impl fmt::Display for ClientId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientId::Address(address) => write!(f, "{address}"),
            ClientId::Person(id) => write!(f, "account {id}"),
        }
    }
}
