from . import jit, autotuner  # noqa: F401
