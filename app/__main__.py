"""``python -m app RECIPE.py [--json]`` is ``tensor-lab run RECIPE.py [--json]``."""

from app.cli import main

raise SystemExit(main())
