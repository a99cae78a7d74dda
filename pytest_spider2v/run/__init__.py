"""One task's run, in the order data flows: the environment restored and set up
(:mod:`.setup_steps`), the agent's episode (:mod:`.episode`, translating its actions with
:mod:`.actions`), the evaluation (:mod:`.evaluation`), all of it written to the task's record
(:mod:`.records`, the typed data in :mod:`.results`). :mod:`.lifecycle` drives one task item
through them, with retries for environment faults.

The contracts the run calls live here too, so the run never imports an extension: what an agent
is given and answers (:mod:`.agent`), what setup steps and getters receive (:mod:`.context`).
"""
