"""tcgtiming render: charts and timing tables."""
from __future__ import annotations

from ..present.charts import cmd_render as run  # moving here from present (layered-package issue)

__all__ = ["run"]
