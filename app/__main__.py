"""``python -m app RECIPE.py [--json]`` is ``tensor-lab run RECIPE.py [--json]``."""

from app.cli import main

if __name__ == "__main__":  # a spawned kernel imports the parent's main module too
    raise SystemExit(main())
