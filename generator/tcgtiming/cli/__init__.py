"""The command line: the only layer that reads arguments and prints."""
from .main import main

__all__ = ["main"]
