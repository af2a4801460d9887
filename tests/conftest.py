"""Test configuration: a reproducible Hypothesis profile for `make test` and CI.

``make test`` sets ``HYPOTHESIS_PROFILE=ci``: the examples are derived from each test
rather than drawn at random, so a run that passes passes again.  Plain ``pytest``
keeps Hypothesis's random exploration, which is how new failing seeds are found.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
