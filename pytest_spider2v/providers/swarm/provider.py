"""The Swarm provider: every acquire runs a service of one replica on a Docker Swarm, from the
task's image as this checkout built it and pushed it to the cluster's registry.

The harness stays on the controller machine (pytest and its xdist workers); the desktops run on
the cluster's nodes, placed by Swarm under the CPU and memory of the snapshot table (the same
values ``--env-cpus`` and ``--env-memory`` set locally), as reservations and as limits, so no node
takes more than it has; a service that finds no room waits in Swarm's own ``pending`` state. The
guest ports are published in host mode at ports the node picks, and the harness reaches them at
the node's address. Each service carries the labels of the local provider (run, worker, provider
instance, snapshot), so the same cleanup applies: a run's services are removed at its end, after
Ctrl-C or SIGTERM (:meth:`SwarmProvider.remove_run`) and, after a crashed controller, by the next
run's stale-owner cleanup.

Images: ``spider2v-build --push REGISTRY`` pushes them; a service names its image by the digest the
push gave this checkout's build, and an image the registry does not have at that digest is refused
before any service starts.
"""

from __future__ import annotations

import logging
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import docker
from docker.errors import APIError, DockerException, ImageNotFound, NotFound
from docker.models.services import Service
from docker.types import Mount, Resources, RestartPolicy

from pytest_spider2v.environments.base import Environment, EnvironmentFault
from pytest_spider2v.environments.http import HttpEnvironment
from pytest_spider2v.environments.limits import Limits, parse_memory, snapshot_limits
from pytest_spider2v.environments.locations import RECIPES_DIR
from pytest_spider2v.environments.provider import left_after, owner_alive
from pytest_spider2v.environments.snapshots import Snapshot, load_snapshots
from pytest_spider2v.providers.docker.provider import (
    GUEST_SERVER_PORT,
    HOSTNAME,
    LABEL,
    OWNER_LABEL,
    PROVIDER_LABEL,
    SNAPSHOT_LABEL,
    WORKER_LABEL,
)

log = logging.getLogger(__name__)

#: Task states of a service's replica that will never run (Swarm's own names).
ENDED = frozenset({"complete", "failed", "shutdown", "rejected", "orphaned", "remove"})
#: How often a service's placement is looked at, and a waiting one reported.
POLL = 0.5
WAITING_REPORT = 30.0
#: How many times a replica that Swarm gave to a node that then went down is placed again.
REPLACEMENTS = 3
#: How long a readiness poll lasts before the node's state is looked at again.
READY_SLICE = 10.0


class _NodeDown(Exception):
    """Swarm gave the replica to a node that is down (it had not noticed yet when it placed it)."""


@dataclass
class SwarmEnvironment(HttpEnvironment):
    """A desktop in a service's container on a cluster node, reached at the node's address."""

    host: str = field(kw_only=True)
    node: str = field(kw_only=True)  #: the node's host name, as Swarm knows it
    node_id: str = field(kw_only=True, repr=False)

    def host_url(self, guest_port: int, scheme: str = "http") -> str:
        try:
            return f"{scheme}://{self.host}:{self.ports[guest_port]}"
        except KeyError:
            raise EnvironmentFault(f"{self.name}: guest port {guest_port} is not published") from None


class SwarmProvider:
    """Hands out services of one replica on the Swarm whose manager's engine API is ``manager``
    (``tcp://node1:2375``, ``ssh://user@node1``), from images in ``registry`` (as the nodes and
    this machine both name it: ``registry.lab:5000``)."""

    def __init__(
        self,
        owner: str,
        worker: str,
        *,
        manager: str,
        registry: str,
        environments_dir: Path = RECIPES_DIR,
        ready_timeout: float = 300.0,
        place_timeout: float = 3600.0,
        shm_size: str = "1g",
        memory: str | int | None = None,
        cpus: float | str | None = None,
        pids: int | str | None = None,
        isolate_network: bool = False,
    ) -> None:
        if isolate_network:
            raise EnvironmentFault("swarm provider: --isolate-network applies to the local provider only")
        self.owner = owner
        self.worker = worker
        self.registry = registry.rstrip("/")
        self.ready_timeout = ready_timeout
        self.place_timeout = place_timeout
        self.shm_bytes = parse_memory(shm_size)
        self.snapshots = load_snapshots(environments_dir)
        self.limits = snapshot_limits(environments_dir / "snapshots.yaml")
        self.overrides = Limits.from_options(memory, cpus, pids)
        self.instance = uuid.uuid4().hex[:12]
        try:
            self.client = docker.DockerClient(base_url=manager, timeout=120)
            swarm = self.client.info().get("Swarm", {})
        except DockerException as exc:
            raise EnvironmentFault(f"swarm provider: cannot reach the manager {manager}: {exc}") from exc
        if swarm.get("LocalNodeState") != "active" or not swarm.get("ControlAvailable"):
            raise EnvironmentFault(f"swarm provider: {manager} is not a manager of an active Swarm")
        self._images: dict[str, str] = {}  # snapshot image -> its reference by digest
        self._services: dict[str, Service] = {}  # environment name -> service

    # -- provider protocol ------------------------------------------------------------------
    def acquire(self, snapshot: str) -> Environment:
        spec = self._snapshot(snapshot)
        replaced = 0
        while True:
            service = self._create(spec)
            try:
                env = self._placed(service, spec)
                self._wait_ready(env)
            except _NodeDown as down:
                self._remove(service)
                replaced += 1
                if replaced > REPLACEMENTS:
                    raise EnvironmentFault(f"swarm provider: {down}") from None
                log.warning("%s; placing it again", down)
                continue
            except BaseException:
                self._remove(service)
                raise
            self._services[env.name] = service
            return env

    def release(self, env: Environment) -> None:
        env.close()
        service = self._services.pop(env.name, None)
        if service is not None:
            self._remove(service)

    def close(self) -> None:
        for service in [*self._services.values(), *self._labelled({PROVIDER_LABEL: self.instance})]:
            self._remove(service)
        self._services.clear()

    def cleanup_stale(self) -> int:
        stale = [s for s in self._labelled({}) if not owner_alive(s.attrs["Spec"]["Labels"].get(OWNER_LABEL, ""))]
        for service in stale:
            self._remove(service)
        return len(stale)

    def remove_run(self, wait: float = 0.0) -> int:
        left = left_after(lambda: self._labelled({OWNER_LABEL: self.owner}), wait, POLL)
        for service in left:
            self._remove(service)
        return len(left)

    def limits_of(self, snapshot: str) -> Limits:
        """The limits a service of ``snapshot`` reserves and runs under: the run's over the table's."""
        return self.overrides.over(self.limits.get(snapshot, Limits()))

    # -- services -----------------------------------------------------------------------------
    def _snapshot(self, name: str) -> Snapshot:
        try:
            spec = self.snapshots[name]
        except KeyError:
            raise EnvironmentFault(f"swarm provider: no snapshot {name!r} in snapshots.yaml") from None
        self._image(spec)
        return spec

    def _image(self, spec: Snapshot) -> str:
        """``registry/name@digest`` of this checkout's build of the snapshot's image, once the
        cluster's registry is known to have it at that digest."""
        if spec.image in self._images:
            return self._images[spec.image]
        repository = f"{self.registry}/{spec.image.rsplit(':', 1)[0]}"
        push = f"spider2v-build --push {self.registry} {spec.recipe}"
        try:
            built = docker.from_env().images.get(spec.image)
        except ImageNotFound:
            raise EnvironmentFault(f"swarm provider: image {spec.image} is not built here; run `{push}`") from None
        pushed = [d for d in built.attrs.get("RepoDigests") or [] if d.startswith(f"{repository}@")]
        if not pushed:
            raise EnvironmentFault(f"swarm provider: this checkout's {spec.image} was never pushed to "
                                   f"{self.registry}; run `{push}`")
        try:
            self.client.api.inspect_distribution(pushed[0])
        except APIError as exc:
            raise EnvironmentFault(f"swarm provider: registry {self.registry} has no {pushed[0]} (the digest "
                                   f"this checkout built): {exc.explanation}; run `{push}`") from None
        self._images[spec.image] = pushed[0]
        return pushed[0]

    def _create(self, spec: Snapshot) -> Service:
        limits = self.limits_of(spec.name)
        labels = {LABEL: "1", OWNER_LABEL: self.owner, WORKER_LABEL: self.worker, PROVIDER_LABEL: self.instance,
                  SNAPSHOT_LABEL: spec.name}
        nano_cpus = int(limits.cpus * 1e9) if limits.cpus else None
        try:
            return self.client.services.create(
                self._images[spec.image],
                name=f"spider2v-{self.worker}-{uuid.uuid4().hex[:8]}",
                labels=labels,
                container_labels=labels,
                hostname=HOSTNAME,
                init=True,
                mounts=[Mount("/dev/shm", None, type="tmpfs", tmpfs_size=self.shm_bytes)],
                resources=Resources(cpu_limit=nano_cpus, mem_limit=limits.memory,
                                    cpu_reservation=nano_cpus, mem_reservation=limits.memory),
                restart_policy=RestartPolicy(condition="none"),
                # host mode, at ports the node picks: reached at the node's address
                endpoint_spec={"Ports": [{"Protocol": "tcp", "TargetPort": port, "PublishMode": "host"}
                                         for port in spec.ports]},
            )
        except DockerException as exc:
            raise EnvironmentFault(f"swarm provider: cannot create a service of {spec.image}: {exc}") from exc

    def _placed(self, service: Service, spec: Snapshot) -> SwarmEnvironment:
        """The service's environment once its replica runs: the node and the ports it published.
        A replica that waits for room is reported every half minute; one that ends is a fault."""
        started = reported = time.monotonic()
        while True:
            tasks = service.tasks()
            task = tasks[0] if tasks else None
            status = task["Status"] if task else {}
            state = status.get("State", "new")
            if state == "running" and task is not None:
                return self._environment(service, task, spec)
            if state in ENDED:
                raise EnvironmentFault(f"swarm provider: {service.name} {state}: {status.get('Err') or status.get('Message')}")
            if task is not None and task.get("NodeID") and self._node_state(task["NodeID"]) == "down":
                raise _NodeDown(f"{service.name} was given to node {task['NodeID'][:12]}, which is down")
            waited = time.monotonic() - started
            if waited > self.place_timeout:
                raise EnvironmentFault(f"swarm provider: {service.name} not placed after {waited:.0f} s ({state}: "
                                       f"{status.get('Err') or status.get('Message')})")
            if state == "pending" and time.monotonic() - reported > WAITING_REPORT:
                reported = time.monotonic()
                log.warning("%s waits for room on the cluster (%.0f s): %s", service.name, waited, status.get("Err"))
            time.sleep(POLL)

    def _wait_ready(self, env: SwarmEnvironment) -> None:
        """The guest's readiness, in slices between which the node's state is looked at: a node
        that went down makes the replica be placed again at once, not after the whole timeout."""
        deadline = time.monotonic() + self.ready_timeout
        while True:
            try:
                env.wait_ready(min(READY_SLICE, max(deadline - time.monotonic(), 0.1)))
                return
            except EnvironmentFault:
                if self._node_state(env.node_id) == "down":
                    raise _NodeDown(f"{env.name}'s node {env.node} went down before its desktop was ready") from None
                if time.monotonic() >= deadline:
                    raise

    def _environment(self, service: Service, task: dict[str, Any], spec: Snapshot) -> SwarmEnvironment:
        node = self.client.nodes.get(task["NodeID"])
        published = {p["TargetPort"]: p["PublishedPort"] for p in task["Status"].get("PortStatus", {}).get("Ports", [])}
        if GUEST_SERVER_PORT not in published:
            raise EnvironmentFault(f"swarm provider: {service.name} runs without its guest port published")
        address = node.attrs["Status"]["Addr"]
        return SwarmEnvironment(str(service.name), f"http://{address}:{published[GUEST_SERVER_PORT]}", published,
                                display=spec.display, host=address, node=node.attrs["Description"]["Hostname"],
                                node_id=str(node.id))

    def _node_state(self, node_id: str) -> str:
        try:
            return str(self.client.nodes.get(node_id).attrs["Status"]["State"])
        except NotFound:
            return "down"

    def _labelled(self, extra: dict[str, str]) -> list[Service]:
        filters = [f"{LABEL}=1", *(f"{k}={v}" for k, v in extra.items())]
        return list(self.client.services.list(filters={"label": filters}))

    def _remove(self, service: Service) -> None:
        try:
            service.remove()
        except NotFound:
            pass


def factory(owner: str, worker: str, **options: Any) -> SwarmProvider:
    """One provider per pytest worker; the ``providers`` registry entry calls it."""
    return SwarmProvider(owner, worker, **options)
