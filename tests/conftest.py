import os
import sys
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))

DATA = Path(__file__).parent / "data"

# Property tests draw the same examples on every run by default, so a CI run is reproducible and a
# rare example cannot turn one run red and the next green; HYPOTHESIS_PROFILE=explore draws fresh
# random examples each run (how new counter-examples are looked for).
settings.register_profile("ci", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
