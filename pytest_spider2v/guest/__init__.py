"""Everything that runs inside an environment, apart from the host: the guest server baked into
every image (``server/``, started there as ``python3 -m guest``) and the modules reference
solutions import (``solution_helpers/``, shipped with the solution's code by the oracle agent).

Nothing here imports the host side, and the host never imports anything here: it speaks to the
server over HTTP and reads the helpers' files. CI checks both with import contracts.
"""
