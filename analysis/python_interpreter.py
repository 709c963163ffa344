"""Finding a Python that has the packages a script needs.

The first python3 on PATH may be a pyenv, conda or virtual-environment interpreter without the
packages Debian installs for /usr/bin/python3 (python3-matplotlib). require() returns if this
interpreter has the module; otherwise it re-runs the script with the first other python3 (Debian's
first, then the others on PATH) that has it, or exits with a message naming this interpreter and
the package to install.
"""
import os
import subprocess
import sys

_REEXEC = "SONICSIM_PYTHON_REEXEC"


def _candidates():
    # By path, not by what links resolve to: a virtual environment's python3 links to the system's
    # but does not see its packages.
    seen = {os.path.abspath(sys.executable)}
    for directory in ["/usr/bin"] + os.environ.get("PATH", "").split(os.pathsep):
        path = os.path.abspath(os.path.join(directory or ".", "python3"))
        if path not in seen and os.access(path, os.X_OK):
            seen.add(path)
            yield path


def _has(interpreter, module):
    # Found on its path, without importing it (importing matplotlib takes a second): a module found
    # but broken fails at the import after the re-run, with require()'s message.
    probe = f"import importlib.util, sys; sys.exit(importlib.util.find_spec({module!r}) is None)"
    try:
        return subprocess.run([interpreter, "-c", probe], capture_output=True, timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def require(module, debian_package, script):
    try:
        __import__(module)
        return
    except ImportError:
        pass
    if not os.environ.get(_REEXEC):
        for interpreter in _candidates():
            if _has(interpreter, module):
                os.environ[_REEXEC] = "1"
                os.execv(interpreter, [interpreter, os.path.abspath(sys.argv[0])] + sys.argv[1:])
    version = ".".join(map(str, sys.version_info[:3]))
    sys.exit(f"{script}: error: {module} is not installed for {sys.executable} (Python {version}), nor for any other "
             f"python3 on PATH or in /usr/bin; install {debian_package} (Debian: apt-get install {debian_package}; "
             f"elsewhere: {sys.executable} -m pip install {module})")
