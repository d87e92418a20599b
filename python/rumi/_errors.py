"""Exception classes. Every error rumi raises is a RumiError; the category says what failed."""


class RumiError(Exception):
    """Base class of every rumi error (the message is the core library's text)."""


class FormatError(RumiError):
    """The bytes break a rule of the rumi specification (the message names the rule)."""


class LimitError(RumiError):
    """A resource limit was exceeded before anything was allocated (raise it with limits=)."""


class UnsupportedError(RumiError, TypeError):
    """Valid data this environment cannot represent (e.g. bfloat16 without ml_dtypes)."""


class RumiIOError(RumiError, OSError):
    """Reading or writing the bytes failed (file system, HTTP, S3), after retries."""


class RequestError(RumiError, ValueError):
    """An invalid argument: a window outside the raster, a bad band list, a bad write spec..."""
