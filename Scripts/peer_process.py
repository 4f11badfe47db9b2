"""How every peer harness starts: one thread in each numerical library, set before numpy, OpenBLAS
or onnxruntime load (OpenBLAS starts its threads at load), then re-executed in the project's .venv
where the pinned peers are installed."""
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"


def enter_single_threaded_venv(script, extra_variables=()):
    for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", *extra_variables):
        os.environ[variable] = "1"
    if Path(sys.prefix).resolve() != VENV.resolve():
        if not (VENV / "bin" / "python").exists():
            sys.exit(f"{Path(script).stem}: error: .venv is missing; run Scripts/setup")
        os.execv(VENV / "bin" / "python", [str(VENV / "bin" / "python"), script, *sys.argv[1:]])


class BenchError(RuntimeError):
    """A harness's failure, which its main prints as `<harness>: error: …`."""


def answer_requests(handlers):
    """dfbench's --serve protocol: print `ready`, then answer each request line (its words, e.g.
    `onnxruntime offline`, keyed as a tuple) with the one JSON line its handler returns, until `quit`
    or the end of stdin."""
    print("ready", flush=True)
    for line in sys.stdin:
        request = tuple(line.split())
        if request == ("quit",):
            break
        if request not in handlers:
            raise BenchError(f"--serve: unknown request '{line.strip()}' (expected one of: "
                             + ", ".join(" ".join(key) for key in handlers) + ", quit)")
        print(json.dumps(handlers[request]()), flush=True)
