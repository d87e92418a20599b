"""The differential suite (README.md): a package, so that its conftest is imported as
differential.conftest and never shadows the suite's own `conftest` module."""
