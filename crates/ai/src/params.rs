//! Reading an agent's `key=value` parameters, refusing keys the agent does not take.

use std::str::FromStr;
use std::time::Duration;

use crate::{AgentError, AgentSpec};

/// The most search threads an agent takes (`threads=N`).
pub const MAX_THREADS: usize = 64;

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

    fn bad(&self, key: &str, value: &str) -> AgentError {
        AgentError::Parameter(format!("{key}={value}"), self.spec.kind.name().to_string())
    }

    /// The value of `key` read as a `T`, if given.
    pub(crate) fn get<T: FromStr>(&self, key: &str) -> Result<Option<T>, AgentError> {
        self.spec
            .param(key)
            .map(|v| v.parse().map_err(|_| self.bad(key, v)))
            .transpose()
    }

    /// Whether `key` was given.
    pub(crate) fn has(&self, key: &str) -> bool {
        self.spec.param(key).is_some()
    }

    /// A duration in seconds (`0.5`), if given; must be finite and not negative.
    pub(crate) fn seconds(&self, key: &str) -> Result<Option<Duration>, AgentError> {
        let Some(text) = self.spec.param(key) else {
            return Ok(None);
        };
        text.parse::<f64>()
            .ok()
            .and_then(|s| Duration::try_from_secs_f64(s).ok())
            .map(Some)
            .ok_or_else(|| self.bad(key, text))
    }

    /// A number that must be finite and positive, if given.
    pub(crate) fn positive(&self, key: &str) -> Result<Option<f64>, AgentError> {
        match self.get::<f64>(key)? {
            Some(x) if !(x.is_finite() && x > 0.0) => Err(self.bad(key, &x.to_string())),
            other => Ok(other),
        }
    }

    /// The `threads` parameter: search threads, 1..=64, default 1.
    pub(crate) fn threads(&self) -> Result<usize, AgentError> {
        match self.get::<usize>("threads")? {
            None => Ok(1),
            Some(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
            Some(n) => Err(self.bad("threads", &format!("{n} (expected 1..={MAX_THREADS})"))),
        }
    }

    /// A value read by `parse`, if given.
    pub(crate) fn with<T>(
        &self,
        key: &str,
        parse: impl Fn(&str) -> Option<T>,
    ) -> Result<Option<T>, AgentError> {
        self.spec
            .param(key)
            .map(|v| parse(v).ok_or_else(|| self.bad(key, v)))
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
        assert!(params.get::<u32>("depth").is_err());
        assert!(Params::new(&spec, &["time"]).is_err());
        let negative: AgentSpec = "ai:mcts:time=-1".parse().unwrap();
        assert!(Params::new(&negative, &["time"])
            .unwrap()
            .seconds("time")
            .is_err());
    }
}
