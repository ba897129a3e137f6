//! Reading an agent's `key=value` parameters, refusing keys the agent does not take and
//! values outside each number's documented range (a spec may come from a record file, which
//! is untrusted input: a huge `hash` must not allocate gigabytes, a `c=nan` must not poison a
//! search).

use std::fmt::Display;
use std::str::FromStr;
use std::time::Duration;

use crate::{AgentError, AgentSpec};

/// The most search threads an agent takes (`threads=N`).
pub const MAX_THREADS: usize = 64;

/// The longest time per decision any agent accepts, in seconds (an hour).
pub const MAX_SECONDS: f64 = 3600.0;

/// The most nodes (or MCTS iterations) per decision any agent accepts.
pub const MAX_NODES: u64 = 1_000_000_000_000;

/// The parameters of one spec, checked against the keys an agent knows.
#[derive(Debug)]
pub(crate) struct Params<'a> {
    spec: &'a AgentSpec,
}

impl<'a> Params<'a> {
    /// Checks that every parameter of `spec` is one of `known`.
    pub(crate) fn new(spec: &'a AgentSpec, known: &[&str]) -> Result<Self, AgentError> {
        if let Some((key, _)) = spec
            .params
            .iter()
            .find(|(k, _)| !known.contains(&k.as_str()))
        {
            return Err(AgentError::Parameter(
                key.clone(),
                format!("{} (takes {})", spec.kind.name(), known.join(", ")),
            ));
        }
        Ok(Params { spec })
    }

    fn bad(&self, key: &str, value: &str, expected: &str) -> AgentError {
        AgentError::Parameter(
            format!("{key}={value}"),
            format!("{}: expected {expected}", self.spec.kind.name()),
        )
    }

    /// A switch (`true` or `false`), if given.
    pub(crate) fn flag(&self, key: &str) -> Result<Option<bool>, AgentError> {
        self.with(key, "true or false", |v| v.parse().ok())
    }

    /// A number in `min..=max`, if given; anything else (NaN included) is refused with the
    /// range.
    pub(crate) fn ranged<T>(&self, key: &str, min: T, max: T) -> Result<Option<T>, AgentError>
    where
        T: FromStr + PartialOrd + Display + Copy,
    {
        let expected = || format!("a number from {min} to {max}");
        self.spec
            .param(key)
            .map(|v| match v.parse::<T>() {
                Ok(x) if x >= min && x <= max => Ok(x),
                _ => Err(self.bad(key, v, &expected())),
            })
            .transpose()
    }

    /// Whether `key` was given.
    pub(crate) fn has(&self, key: &str) -> bool {
        self.spec.param(key).is_some()
    }

    /// A duration in seconds (`0.5`) from 0 to [`MAX_SECONDS`], if given.
    pub(crate) fn seconds(&self, key: &str) -> Result<Option<Duration>, AgentError> {
        Ok(self
            .ranged(key, 0.0, MAX_SECONDS)?
            .map(Duration::from_secs_f64))
    }

    /// A number above 0 and at most `max`, if given.
    pub(crate) fn positive(&self, key: &str, max: f64) -> Result<Option<f64>, AgentError> {
        let expected = format!("a number above 0 and at most {max}");
        self.with(key, &expected, |v| {
            v.parse::<f64>().ok().filter(|x| *x > 0.0 && *x <= max)
        })
    }

    /// The `threads` parameter: search threads, 1..=[`MAX_THREADS`], default 1.
    pub(crate) fn threads(&self) -> Result<usize, AgentError> {
        Ok(self.ranged("threads", 1, MAX_THREADS)?.unwrap_or(1))
    }

    /// A value read by `parse`, if given; `expected` says what `parse` accepts.
    pub(crate) fn with<T>(
        &self,
        key: &str,
        expected: &str,
        parse: impl Fn(&str) -> Option<T>,
    ) -> Result<Option<T>, AgentError> {
        self.spec
            .param(key)
            .map(|v| parse(v).ok_or_else(|| self.bad(key, v, expected)))
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_and_bad_values_are_refused() {
        let spec: AgentSpec = "ai:alphabeta:time=0.5,depth=x".parse().unwrap();
        let params = Params::new(&spec, &["time", "depth"]).unwrap();
        assert_eq!(
            params.seconds("time").unwrap(),
            Some(Duration::from_millis(500))
        );
        assert!(params.ranged::<u32>("depth", 1, 9).is_err());
        assert!(Params::new(&spec, &["time"]).is_err());
        let negative: AgentSpec = "ai:mcts:time=-1".parse().unwrap();
        assert!(Params::new(&negative, &["time"])
            .unwrap()
            .seconds("time")
            .is_err());
    }

    #[test]
    fn numbers_outside_their_range_are_refused_with_the_range() {
        let spec: AgentSpec = "ai:mcts:c=nan,time=inf,tree=0,scale=-1,reuse=maybe"
            .parse()
            .unwrap();
        let params = Params::new(&spec, &["c", "time", "tree", "scale", "reuse"]).unwrap();
        let error = params.positive("c", 100.0).unwrap_err().to_string();
        assert_eq!(
            error,
            "bad parameter 'c=nan' for mcts: expected a number above 0 and at most 100"
        );
        let error = params.seconds("time").unwrap_err().to_string();
        assert_eq!(
            error,
            "bad parameter 'time=inf' for mcts: expected a number from 0 to 3600"
        );
        assert!(params.ranged::<u32>("tree", 1, 9).is_err());
        assert!(params.positive("scale", 10.0).is_err());
        assert!(params.flag("reuse").is_err());
    }
}
