//! The CLI's error: one message, printed as `rumi: <message>` with exit code 1.

use std::fmt::Display;

/// A failed command, with the complete message for the user.
#[derive(Debug)]
pub struct Failure(pub String);

/// Result of a command step.
pub type Res<T> = Result<T, Failure>;

impl From<String> for Failure {
    fn from(s: String) -> Self {
        Failure(s)
    }
}

impl From<&str> for Failure {
    fn from(s: &str) -> Self {
        Failure(s.to_owned())
    }
}

impl From<rumi::Error> for Failure {
    fn from(e: rumi::Error) -> Self {
        Failure(Plain(e).to_string())
    }
}

/// A library error as the CLI words it: a resource limit without the library's and GDAL's
/// knobs (`Limits::...`, `RUMI_MAX_...`), which the CLI does not offer.
pub struct Plain(pub rumi::Error);

impl Display for Plain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            rumi::Error::Limit { what, value, limit } => {
                write!(
                    f,
                    "resource limit exceeded: {what} is {value}, the limit is {limit} (the rumi tool works within \
                     rumi's default limits)"
                )
            }
            e => e.fmt(f),
        }
    }
}

/// [`Plain`] for `map_err`.
pub fn plain(e: rumi::Error) -> Plain {
    Plain(e)
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Failure(e.to_string())
    }
}

/// Adds what was being done to an error.
pub trait Context<T> {
    /// Prefixes the error with `what()`: `<what>: <error>`.
    fn context<S: Display>(self, what: impl FnOnce() -> S) -> Res<T>;
}

impl<T, E: Display> Context<T> for Result<T, E> {
    fn context<S: Display>(self, what: impl FnOnce() -> S) -> Res<T> {
        self.map_err(|e| Failure(format!("{}: {e}", what())))
    }
}

/// Writes `text` to stdout. A closed pipe (`rumi info FILE | head`) ends the output quietly
/// instead of failing or panicking.
pub fn print(text: &str) -> Res<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Failure(format!("cannot write to standard output: {e}")))
        }
        _ => Ok(()),
    }
}

/// Writes `rumi: <text>` to stderr, best effort (a closed stderr is ignored).
pub fn say(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "rumi: {text}");
}
