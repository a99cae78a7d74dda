"""Stand-ins for the ``astro`` and ``docker`` commands of the original Airflow tasks.

The original tasks run Airflow with the Astro CLI, which runs it in Docker containers; this
image has neither Docker nor the CLI, and runs Airflow itself. ``astro`` (:mod:`.astro`) and
``docker`` (:mod:`.docker`) map the commands the tasks' scripts and instructions use onto that
Airflow, run on the task's project folder (:mod:`.project`, :mod:`.local`). Installed in the
image as /opt/spider2v/astro_standin and run with Airflow's own Python (it has PyYAML).
"""
