"""Guest helpers for Dagster reference solutions, built on :mod:`dagster_ui`: the steps in the
Dagster UI that solutions take the same way. Reload the code location and wait until the asset
graph shows an asset; click a materialize button and wait until the run has finished.

A solution cell that runs ``from dagster_assets import materialize`` gets this module, and
:mod:`dagster_ui` that it uses, shipped with it by the oracle agent (see
:mod:`pytest_spider2v.agents.solution_helpers`).
"""

import time

from dagster_ui import click, wait_for, wait_runs_done

#: the accessible roles an asset's name has in the asset graph (a node's label, heading or link)
ASSET_ROLES = ("static", "heading", "link", "push button", "section")


def reload_until(asset):
    """Click "Reload definitions" and wait until the asset graph shows ``asset``."""
    click("Reload definitions")
    wait_for(asset, roles=ASSET_ROLES)
    time.sleep(1)


def materialize(button="Materialize all", runs=1):
    """Click the materialize ``button`` of the page ("Materialize" when the graph has one asset)
    and wait until ``runs`` runs have finished."""
    click(button)
    wait_runs_done(runs)
    time.sleep(1)
