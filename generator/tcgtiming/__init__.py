"""tcgtiming: the timing of trading card game turns, explicit and executable."""
__version__ = "0.1.0"
