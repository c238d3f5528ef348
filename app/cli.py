"""``tensor-lab run``: evaluate a recipe headless, with no Qt imported.

``tensor-lab run RECIPE.py [--json]`` (also ``python -m app RECIPE.py``) prints what
``python RECIPE.py`` prints, or one JSON report. The window's own command line, which
hands ``run`` to :func:`run_main`, is ``widgets.launch.main``.
"""

from __future__ import annotations

import argparse
import io
import json
import sys

#: Exit codes of ``tensor-lab run``.
EXIT_OK, EXIT_STEP_FAILED, EXIT_REFUSED = 0, 1, 2


def main(argv: list[str] | None = None) -> int:
    """``python -m app [run] RECIPE.py [--json]``: the same as ``tensor-lab run``."""
    argv = sys.argv[1:] if argv is None else list(argv)
    return run_main(argv[1:] if argv[:1] == ["run"] else argv)


def run_main(argv: list[str]) -> int:
    """Evaluate a recipe headless; print what ``python RECIPE.py`` prints, or JSON."""
    parser = argparse.ArgumentParser(prog="tensor-lab run",
                                     description="Evaluate a recipe without the window.")
    parser.add_argument("recipe", help="the recipe file (.py)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object with every tensor and every error")
    args = parser.parse_args(argv)

    from app.recipe.evaluator import evaluate
    from app.recipe.jsonout import run_report
    from app.recipe.reader import RecipeError, read_recipe_file
    from app.training.script import run_training_for_cli

    try:
        recipe = read_recipe_file(args.recipe)
    except OSError as e:
        print(f"tensor-lab: cannot read {args.recipe}: {e.strerror or e}", file=sys.stderr)
        return EXIT_REFUSED
    except RecipeError as e:
        if args.json:
            print(json.dumps({"tensors": {}, "errors": [
                {"line": e.line, "column": e.column, "step": None, "message": e.reason}],
                "refused": True}))
        print(f"tensor-lab: {args.recipe}: refused: {e}", file=sys.stderr)
        return EXIT_REFUSED

    for warning in recipe.warnings:
        print(f"tensor-lab: {args.recipe}: warning: {warning}", file=sys.stderr)
    trained = None
    if args.json:
        captured = io.StringIO()
        run = evaluate(recipe, stdout=captured)
        report = run_report(run)
        if run.ok and recipe.training is not None:
            trained = run_training_for_cli(recipe.training, captured)
            report.update(trained.report)
        report["stdout"] = captured.getvalue()
        print(json.dumps(report))
    else:
        run = evaluate(recipe, stop_on_error=True)
        sys.stdout.flush()
        for r in run.results:
            for w in r.warnings:
                print(f"{args.recipe}:{r.step.line or 0}: {w}", file=sys.stderr)
        for r in run.errors:
            where = f"line {r.step.line}" if r.step.line else r.step.label
            print(f"{args.recipe}: {where}: {r.error_type}: {r.error}", file=sys.stderr)
        if run.ok and recipe.training is not None:
            trained = run_training_for_cli(recipe.training, sys.stdout)
            if trained.error:
                print(f"{args.recipe}: training: {trained.error}", file=sys.stderr)
    return EXIT_OK if run.ok and not (trained and trained.error) else EXIT_STEP_FAILED
