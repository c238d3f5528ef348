"""The ``tensor-lab`` command line.

``tensor-lab [RECIPE.py]`` opens the window; ``tensor-lab --screenshot OUT.png [RECIPE.py]``
renders it offscreen; ``tensor-lab run RECIPE.py [--json]`` evaluates headless with no
Qt imported.
"""

from __future__ import annotations

import argparse
import io
import json
import sys

#: Exit codes of ``tensor-lab run``.
EXIT_OK, EXIT_STEP_FAILED, EXIT_REFUSED = 0, 1, 2


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["run"]:
        return run_main(argv[1:])
    return gui_main(argv)


def run_main(argv: list[str]) -> int:
    """Evaluate a recipe headless; print what ``python RECIPE.py`` prints, or JSON."""
    parser = argparse.ArgumentParser(prog="tensor-lab run",
                                     description="Evaluate a recipe without the window.")
    parser.add_argument("recipe", help="the recipe file (.py)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object with every tensor and every error")
    args = parser.parse_args(argv)

    from app.evaluator import evaluate
    from app.jsonout import run_report
    from app.reader import RecipeError, read_recipe_file
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


def gui_main(argv: list[str]) -> int:
    """Open the window (or render it offscreen with ``--screenshot``)."""
    parser = argparse.ArgumentParser(
        prog="tensor-lab",
        description="A desktop lab for exploring PyTorch. "
                    "'tensor-lab run RECIPE.py [--json]' evaluates a recipe without the window.")
    parser.add_argument("recipe", nargs="?", help="a recipe to open (.py)")
    parser.add_argument("--screenshot", metavar="OUT.png",
                        help="render the window offscreen at 1280x800, save it, and exit")
    parser.add_argument("--size", default="1280x800", help="window size for --screenshot")
    parser.add_argument("--present", action="store_true",
                        help="start in presenter mode: big text, cells and plot lines")
    parser.add_argument("--lang", metavar="LOCALE",
                        help="the interface language, such as en or zh_CN (remembered)")
    parser.add_argument("--theme", choices=("system", "light", "dark"),
                        help="the colour theme (remembered)")
    args = parser.parse_args(argv)
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        parser.error(f"--size must look like 1280x800, not {args.size!r}")

    from app.gui import launch

    return launch(args.recipe, screenshot=args.screenshot, size=(width, height),
                  present=args.present, lang=args.lang, theme=args.theme)
