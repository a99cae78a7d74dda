"""The command-line tools: ``spider2v-build`` (:mod:`.build`), ``spider2v-catalog``
(:mod:`.catalog`) and ``spider2v-compat`` (:mod:`.compat`). Each is argument parsing and output
around a library function of another room.
"""
