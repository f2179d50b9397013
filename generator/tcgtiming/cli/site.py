"""tcgtiming site: the static site."""
from __future__ import annotations

from ..present.site import cmd_site as run  # moving here from present (layered-package issue)

__all__ = ["run"]
