"""The model-driven agents: the original harness's prompts and action spaces (:mod:`.agent`,
:mod:`.prompting`, :mod:`.parsing`), the observations a model is shown (:mod:`.observation`,
Set-of-Marks in :mod:`.som`), the wire protocols (:mod:`.backends`), the screenless code agent
(:mod:`.code_mode`), retrieval (:mod:`.rag`), prices (:mod:`.pricing`) and their command-line
flags (:mod:`.options`).
"""
