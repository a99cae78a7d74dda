"""The reports' tests run ``spider2v-report`` in process beside pytester, which restores
``sys.modules`` after each test: numpy, a C extension that loads once per process, would then be
imported a second time by the statistics or the charts. Loaded here, before any snapshot."""

import matplotlib.figure  # noqa: F401
import scipy.stats  # noqa: F401
import statsmodels.stats.proportion  # noqa: F401
