"""A kernel on a server over SSH (``app.link.ssh``), against a real sshd on 127.0.0.1.

The server is this machine, reached through OpenSSH with throwaway keys
(``tests/sshd_server.py``); its python is this one (``?python=``), and a venv made
without torch stands in for a server that lacks it.
"""

from __future__ import annotations

import subprocess
import sys
import time
import venv
from pathlib import Path

import pytest

from app.link import ssh
from app.link.ssh import SshKernel, Unreachable, parse_target
from protocol import messages
from tests.sshd_server import LocalSshd, available
from tests.test_seeds import ENV, EXAMPLES, EXPECTED, SEEDS, _masked, python_run

pytestmark = pytest.mark.skipif(bool(available()), reason=available() or "sshd here")


@pytest.fixture(scope="module")
def sshd(tmp_path_factory):
    server = LocalSshd(tmp_path_factory.mktemp("sshd"))
    yield server
    server.stop()


@pytest.fixture
def reach(sshd, monkeypatch):
    """This python on the local sshd, as ``tensor-lab run --kernel`` would name it."""
    monkeypatch.setenv("TENSOR_LAB_SSH", sshd.ssh)
    return parse_target(sshd.url(sys.executable))


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _running(kernel: SshKernel, source: str) -> None:
    """Start ``source`` in ``kernel`` for the window, and wait until its first statement
    runs."""
    kernel.run_source("spin.py", source)
    while not isinstance(kernel.receive(60), messages.StepStarted):
        pass


def _cli(sshd, url: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    if not (cwd / args[0]).exists():
        (cwd / args[0]).write_text("print('ran')\n")
    env = {**ENV, "TENSOR_LAB_SSH": sshd.ssh}
    return subprocess.run([sys.executable, "-m", "app", "run", "--kernel", url, *args],
                          capture_output=True, text=True, cwd=cwd, env=env, timeout=300)


# -- addresses ---------------------------------------------------------------------------------
@pytest.mark.parametrize("text, host, user, port, python", [
    ("gpu1", "gpu1", "", None, "python3"),
    ("ada@gpu1:2222", "gpu1", "ada", 2222, "python3"),
    ("ssh://ada@gpu1.example.org:22?python=/opt/conda/bin/python",
     "gpu1.example.org", "ada", 22, "/opt/conda/bin/python"),
    ("ssh://[::1]:2200", "::1", "", 2200, "python3"),
])
def test_a_server_address_reads_as_ssh_would_name_it(text, host, user, port, python):
    target = parse_target(text)
    assert (target.host, target.user, target.port, target.python) == (host, user, port, python)
    assert parse_target(target.url()) == target


@pytest.mark.parametrize("text", ["", "ssh://", "gpu1:port", "ssh://-oProxyCommand=sh",
                                  "ssh://ada:secret@gpu1", "gpu1/some/path", "gpu1:99999"])
def test_a_broken_or_hostile_address_is_refused_with_a_reason(text):
    with pytest.raises(ValueError, match="address|host"):
        parse_target(text)


def test_the_remote_command_is_one_quoted_word_per_part():
    target = parse_target("ssh://ada@gpu1?python=/opt/my python/bin/python3;rm -rf ~")
    command = ssh.ssh_command(target)
    assert command[-2] == "ada@gpu1" and command[-3] == "--"
    assert command[-1].startswith("'/opt/my python/bin/python3;rm -rf ~' -c ")


# -- a kernel there ---------------------------------------------------------------------------
def test_a_recipe_runs_on_the_server_in_its_work_folder(reach, sshd, tmp_path, capfdbinary):
    kernel = SshKernel(reach)
    try:
        assert kernel.server.torch and kernel.server.python == sys.executable
        ending = kernel.run_file(str(tmp_path / "lesson.py"),
                                 "import os, torch\nprint(torch.arange(4).sum().item())\n"
                                 "print(os.getcwd())\ntorch.save(torch.ones(2), 'w.pt')\n",
                                 timeout=120)
    finally:
        kernel.close()
    assert ending.exit_code == 0 and ending.reason == ""
    folder = sshd.home / ".local/share/tensor-lab/work/lesson"
    assert capfdbinary.readouterr().out.decode().splitlines() == ["6", str(folder)]
    assert (folder / "w.pt").exists() and not (tmp_path / "w.pt").exists()
    assert kernel.work_folder(str(tmp_path / "lesson.py")) == str(folder)


def test_stop_interrupts_the_recipe_on_the_server_and_keeps_the_kernel(reach):
    kernel = SshKernel(reach)
    try:
        _running(kernel, "import time\nwhile True:\n    time.sleep(0.01)\n")
        time.sleep(0.2)
        kernel.interrupt()  # as the window's Stop: then its Done within the 200 ms grace
        asked = time.monotonic()
        done = None
        while done is None and time.monotonic() - asked < 5:
            message = kernel.receive(0.05)
            done = message if isinstance(message, messages.Done) else None
        assert done is not None and time.monotonic() - asked < 1.0
        assert kernel.interrupt_raised
        assert kernel.alive and _alive(kernel.pid)
    finally:
        kernel.close()


def test_killing_ssh_ends_the_remote_kernel_within_2_s(reach):
    kernel = SshKernel(reach)
    try:
        _running(kernel, "while True:\n    pass\n")
        remote = kernel.pid
        assert remote and _alive(remote)
        kernel.process.kill()  # the connection drops
        ended = time.monotonic()
        while _alive(remote) and time.monotonic() - ended < 5:
            time.sleep(0.02)
        took = time.monotonic() - ended
        assert not _alive(remote), "the kernel outlived its connection"
        assert took < 2.0, f"the kernel ended {took:.2f} s after its connection"
        assert not kernel.alive
    finally:
        kernel.close()


def test_a_kernel_past_its_memory_budget_on_the_server_is_ended(reach):
    kernel = SshKernel(reach, memory_budget=200 << 20)
    try:
        ending = kernel.run_file("big.py", "import numpy\nkeep = []\nwhile True:\n"
                                 "    keep.append(numpy.ones(1 << 22))\n", timeout=120)
    finally:
        kernel.close()
    assert ending.reason == "memory" or ending.out_of_memory


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_example_of_the_notes_runs_on_the_server_as_python_runs_it_here(sshd, name):
    """``tensor-lab run --kernel`` prints what ``python`` prints, the same tracebacks (the
    recipe's path is its work folder's there) and exit code."""
    lab = _cli(sshd, sshd.url(sys.executable), name, cwd=SEEDS)
    python = python_run(name)
    assert python.returncode == EXPECTED[name]["exit_code"], python.stderr[-2000:]
    assert lab.returncode == python.returncode, lab.stderr[-2000:]
    assert _masked(lab.stdout) == _masked(python.stdout)
    there = sshd.home / ".local/share/tensor-lab/work" / Path(name).stem / name
    assert _masked(lab.stderr.replace(str(there), str(SEEDS / name))) == \
        _masked(python.stderr)


# -- connection faults -------------------------------------------------------------------------
def test_a_server_without_torch_says_so_in_one_line(sshd, tmp_path):
    bare = tmp_path / "bare"
    venv.create(bare, with_pip=False)
    done = _cli(sshd, sshd.url(str(bare / "bin" / "python")), "x.py", cwd=tmp_path)
    assert done.returncode == 255
    last = done.stderr.strip().splitlines()[-1]
    assert "has no torch and no numpy" in last and str(bare / "bin" / "python") in last
    assert "ran" not in done.stdout


def test_a_python_that_is_not_there_says_so(sshd, tmp_path):
    done = _cli(sshd, sshd.url("/nowhere/python3"), "x.py", cwd=tmp_path)
    assert done.returncode == 255
    assert "no /nowhere/python3 there" in done.stderr.strip().splitlines()[-1]


def test_a_wrong_host_key_is_refused_with_ssh_words(sshd, tmp_path, monkeypatch):
    other = tmp_path / "other"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(other)],
                   check=True)
    known = tmp_path / "known_hosts"
    known.write_text(f"[127.0.0.1]:{sshd.port} " + " ".join(
        (tmp_path / "other.pub").read_text().split()[:2]) + "\n")
    monkeypatch.setenv("TENSOR_LAB_SSH", sshd.ssh.replace(
        str(sshd.folder / "known_hosts"), str(known)))
    with pytest.raises(Unreachable, match="[Hh]ost key verification failed"):
        SshKernel(parse_target(sshd.url(sys.executable)))


def test_a_server_nobody_answers_at_says_so(monkeypatch, sshd):
    monkeypatch.setenv("TENSOR_LAB_SSH", sshd.ssh)
    with pytest.raises(Unreachable, match="refused"):
        SshKernel(parse_target(f"ssh://127.0.0.1:1?python={sys.executable}"))


# -- the window ---------------------------------------------------------------------------------
def _points(curve) -> int:
    return 0 if curve.xData is None else len(curve.xData)


@pytest.mark.gui
def test_a_training_lesson_trains_live_in_the_window_on_the_server(qtbot, tmp_path, reach,
                                                                    make_window, monkeypatch):
    """``tensor-lab --kernel``: the window's kernel is the server's; its plots fill live,
    and Pause, Step and Stop act there."""
    from app.link import places
    from tests.test_training_tab import MLP

    monkeypatch.setattr(places, "_chosen", reach)
    window = make_window()
    from PySide6.QtWidgets import QLabel

    labels = window.statusBar().findChildren(QLabel)
    qtbot.waitUntil(lambda: any(f"on {reach} " in label.text() and "torch 2" in label.text()
                                for label in labels), timeout=60_000)  # it names the server
    path = tmp_path / "long.py"
    path.write_text(MLP.format(steps=10**7), encoding="utf-8")
    assert window.open_path(str(path), trust=True)
    window.views.setCurrentWidget(window.training)
    panel, plots = window.training, window.training.plots
    qtbot.waitUntil(lambda: panel.loop is not None and panel.loop.steps > 50, timeout=120_000)
    qtbot.waitUntil(lambda: _points(plots.loss_curve) > 10 and _points(plots.lr_curve) > 10
                    and bool(plots.std_lines.points) and bool(plots.grad_lines.points),
                    timeout=60_000)
    panel.bar.pause_button.click()
    qtbot.waitUntil(lambda: panel.loop.paused == "pause", timeout=30_000)
    held = panel.loop.steps
    qtbot.wait(500)
    assert panel.loop.steps <= held + 1  # paused there: no step runs
    panel.bar.step_button.click()
    qtbot.waitUntil(lambda: panel.loop.steps >= held + 1, timeout=30_000)
    window.document.stop()
    qtbot.waitUntil(lambda: window.document.kernel_run is None, timeout=30_000)
    ended = window.document.kernel_ended
    assert ended is not None and ended.reason == "stopped", ended


@pytest.mark.gui
def test_a_lost_connection_says_so_and_reconnect_runs_the_recipe_again(qtbot, tmp_path, reach,
                                                                       make_window,
                                                                       monkeypatch):
    from app.link import places

    monkeypatch.setattr(places, "_chosen", reach)
    path = tmp_path / "small.py"
    path.write_text("import torch\nx = torch.arange(6.0)\ny = x * 2\n", encoding="utf-8")
    window = make_window(str(path))
    document, status = window.document, window.kernel_status
    text = document.recipe.source
    kernel = window.kernel_hook.session._kernel
    first = kernel.pid
    kernel.process.kill()  # the connection drops while the recipe is idle
    qtbot.waitUntil(lambda: status.again_button.isVisible(), timeout=30_000)
    assert status.label.text() == f"The connection to {reach} was lost."
    assert status.again_button.text() == "Reconnect"
    assert document.recipe.source == text  # the document is kept
    qtbot.waitUntil(lambda: not _alive(first), timeout=5_000)  # its kernel went with it
    status.again_button.click()
    window.settle()
    assert not status.again_button.isVisible() and document.kernel_ended.reason == ""
    again = window.kernel_hook.session._kernel
    assert again is not kernel and again.alive and again.pid != first
    assert [r.status for r in document.run.results] == ["ok"] * len(document.recipe.steps)


# -- Kernel > Run On ---------------------------------------------------------------------------
def test_remembered_servers_skip_damaged_entries_and_repeats():
    from widgets.shell.run_on import remembered

    found = remembered(["ssh://ada@gpu1:22", "not a host/with path", "", "ada@gpu1:22",
                        "ssh://-oProxyCommand=x", "gpu2?python=/opt/py"])
    assert [t.url() for t in found] == ["ssh://ada@gpu1:22", "ssh://gpu2?python=/opt/py"]


def _menu_texts(window) -> dict[str, bool]:
    window.run_on._fill()  # (as the menu opens)
    return {a.text(): a.isChecked() for a in window.run_on.menu.actions() if a.text()}


@pytest.mark.gui
def test_a_server_added_from_the_menu_runs_the_recipe_and_is_remembered(
        qtbot, tmp_path, sshd, make_window, monkeypatch):
    from app.link import places
    from app.link.ssh import SshKernel
    from app.link.supervisor import Kernel
    from widgets.shell.server_dialog import ServerDialog
    from widgets.shell.settings_store import load_settings

    monkeypatch.setattr(places, "_chosen", None)
    monkeypatch.setenv("TENSOR_LAB_SSH", sshd.ssh)
    path = tmp_path / "small.py"
    path.write_text("import torch\nx = torch.arange(6.0)\ny = x * 2\n", encoding="utf-8")
    window = make_window(str(path))
    assert _menu_texts(window) == {"This &Computer": True, "&Add a Server…": False}
    assert window.run_on.button.text() == "Run on: this computer"
    dialog = ServerDialog(window)
    dialog.address.setText(f"{sshd.user}@127.0.0.1:{sshd.port}")
    dialog.python.setText(sys.executable)
    dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
    qtbot.waitUntil(lambda: dialog.result() == dialog.DialogCode.Accepted, timeout=60_000)
    target = dialog.target
    assert target.python == sys.executable and dialog.server.torch
    window.run_on.add(target)
    window.settle()
    session = window.kernel_hook.session
    assert places.chosen() == target and isinstance(session._kernel, SshKernel)
    assert [r.status for r in window.document.run.results] == ["ok"] * 2
    assert window.run_on.button.text() == f"Run on: {target}"
    texts = _menu_texts(window)
    assert texts[f"{target}  ({sys.executable})"] is True and texts["This &Computer"] is False
    stored = load_settings()
    assert stored.servers == [target.url()] and stored.run_on == target.url()
    window.run_on.choose(None)  # back here
    window.settle()
    assert places.chosen() is None and type(window.kernel_hook.session._kernel) is Kernel
    assert [r.status for r in window.document.run.results] == ["ok"] * 2
    assert load_settings().run_on == "" and load_settings().servers == [target.url()]


@pytest.mark.gui
def test_a_server_that_cannot_run_recipes_is_not_added(qtbot, sshd, monkeypatch):
    from widgets.shell.server_dialog import ServerDialog

    monkeypatch.setenv("TENSOR_LAB_SSH", sshd.ssh)
    dialog = ServerDialog()
    qtbot.addWidget(dialog)
    dialog.address.setText("-oProxyCommand=touch")  # (ssh would read an option)
    dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
    assert "not a host name" in dialog.status.text() and dialog.target is None
    dialog.address.setText(f"{sshd.user}@127.0.0.1:{sshd.port}")
    dialog.python.setText("/nowhere/python3")
    dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
    qtbot.waitUntil(lambda: "no /nowhere/python3 there" in dialog.status.text(),
                    timeout=60_000)
    assert dialog.target is None and dialog.result() != dialog.DialogCode.Accepted
    assert dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled()


#: The most the LeNet lesson's live training may send across the connection, in bytes per
#: second of training, both ways together (the issue's bound).
TRAFFIC_BOUND = 200_000


@pytest.mark.gui
@pytest.mark.parametrize("page", ["plots", "distributions"])
def test_the_lenet_lessons_live_training_crosses_the_connection_in_under_200_kb_a_second(
        qtbot, tmp_path, reach, make_window, monkeypatch, page):
    """The window asks for what it shows: the lesson trains live (1,000 steps) with the
    Training tab's plots, or its Distributions page (every layer's percentiles), shown,
    and the frames both ways stay under the bound (counted at
    the connection's ends: ``CountingWire``; the time from opening it to its end)."""
    from app.link import places

    monkeypatch.setattr(places, "_chosen", reach)
    lesson = (Path(__file__).parent.parent / "recipes" / "training_lenet.py").read_text(
        encoding="utf-8")
    assert "\nsteps = 100\n" in lesson
    path = tmp_path / "lenet.py"
    path.write_text(lesson.replace("\nsteps = 100\n", "\nsteps = 1000\n"), encoding="utf-8")
    window = make_window()
    window.views.setCurrentWidget(window.training)
    if page == "distributions":
        window.training.views.setCurrentWidget(window.training.distributions)
    kernel = window.kernel_hook.session._kernel
    sent, received = kernel.traffic
    started = time.monotonic()
    assert window.open_path(str(path), trust=True)
    panel = window.training
    qtbot.waitUntil(lambda: panel.loop is not None and panel.loop.finished, timeout=300_000)
    seconds = time.monotonic() - started
    window.settle()
    assert window.kernel_hook.session._kernel is kernel  # (one connection throughout)
    total = sum(kernel.traffic) - sent - received
    assert panel.loop.steps == 1000
    rate = total / seconds
    if page == "distributions":  # (what it shows came)
        assert window.training.distributions.layers
    else:
        qtbot.waitUntil(lambda: _points(panel.plots.loss_curve) == 1000,  # (next frame)
                        timeout=2_000)
        assert panel.plots.std_lines.points
    print(f"LeNet over ssh, {page}: {total / 1e3:.0f} kB in {seconds:.1f} s "
          f"= {rate / 1e3:.1f} kB/s")
    assert rate < TRAFFIC_BOUND, f"{rate / 1e3:.0f} kB/s crossed the connection"


@pytest.mark.gui
def test_a_held_file_is_not_sent_to_the_server_until_run(qtbot, tmp_path, sshd, reach,
                                                          make_window, monkeypatch):
    """The trust rule over SSH: a file from elsewhere opens held, and nothing of it
    reaches the server (no run, no text in its work folder) until the user runs it."""
    from app.link import places

    monkeypatch.setattr(places, "_chosen", reach)
    window = make_window()
    path = tmp_path / "from_elsewhere.py"
    path.write_text("import os\nopen('ran.txt', 'w').write('ran')\nx = 1\n", encoding="utf-8")
    kernel = window.kernel_hook.session._kernel
    sent = kernel.traffic[0]
    window.open_path(str(path))
    window.settle()
    folder = sshd.home / ".local/share/tensor-lab/work/from_elsewhere"
    assert window.document.held and window.trust_bar.run_button.isVisible()
    qtbot.wait(500)
    assert not folder.exists()
    assert kernel.traffic[0] == sent  # not a byte went to the server
    window.trust_bar.run_button.click()
    window.settle()
    assert (folder / "ran.txt").read_text() == "ran"
    assert (folder / "from_elsewhere.py").read_text() == path.read_text()


@pytest.mark.gui
def test_files_the_recipe_wrote_on_the_server_are_listed_and_downloaded(
        qtbot, tmp_path, sshd, reach, make_window, monkeypatch):
    from app.link import places

    monkeypatch.setattr(places, "_chosen", None)
    window = make_window()
    download = window.window_actions["file.download"]
    assert not download.isEnabled()  # (here, the file manager shows the folder)
    monkeypatch.setattr(places, "_chosen", reach)
    path = tmp_path / "writes.py"
    path.write_text("import torch\ntorch.save(torch.arange(5.0), 'w.pt')\n"
                    "open('notes.txt', 'w').write('loss 0.1\\n')\n", encoding="utf-8")
    window.run_on.choose(None)  # (from the server chosen above...)
    window.run_on.choose(reach)  # ...to it, as the menu does
    assert download.isEnabled()
    assert window.open_path(str(path), trust=True)
    window.settle()
    there = sshd.home / ".local/share/tensor-lab/work/writes"
    window.show_run_folder()
    assert f"runs on {reach}, in {there}" in window.statusBar().currentMessage()
    dialog = window.download_from_server()
    qtbot.waitUntil(lambda: len(dialog.names) == 3, timeout=30_000)
    assert set(dialog.names) == {"w.pt", "notes.txt", "writes.py"}
    assert str(there) in dialog.folder.text()
    errors = []
    dialog.download("w.pt", str(tmp_path / "local.pt"), errors.append)
    qtbot.waitUntil(lambda: bool(errors), timeout=30_000)
    assert errors == [""] and (tmp_path / "local.pt").read_bytes() == (there / "w.pt").read_bytes()
    errors.clear()
    dialog.download("../../../../etc/passwd", str(tmp_path / "stolen"), errors.append)
    qtbot.waitUntil(lambda: bool(errors), timeout=30_000)
    assert "not a file name" in errors[0] and not (tmp_path / "stolen").exists()
    dialog.close()


@pytest.mark.gui
def test_the_course_seeds_print_in_the_window_on_the_server_what_python_prints(
        qtbot, tmp_path, reach, make_window, monkeypatch):
    """Every seed that python runs to its end (exit 0), opened in the window with its
    kernel on the server: its console shows exactly what ``python`` printed (addresses
    masked), and the run ends as python's did."""
    import shutil

    from app.link import places

    monkeypatch.setattr(places, "_chosen", reach)
    window = make_window()
    wrong = []
    for name in [n for n in EXAMPLES if EXPECTED[n]["exit_code"] == 0]:
        python = python_run(name)
        path = tmp_path / name
        shutil.copy(SEEDS / name, path)
        assert window.open_path(str(path), trust=True), name
        window.settle(300_000)
        ended = window.document.kernel_ended
        if ended is None or ended.exit_code != 0 or \
                _masked(window.document.output) != _masked(python.stdout):
            wrong.append((name, ended, window.document.output[-300:], python.stdout[-300:]))
    assert not wrong, wrong
    assert isinstance(window.kernel_hook.session._kernel, SshKernel)
