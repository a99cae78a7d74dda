"""The Docker provider: every acquire runs a new container of the snapshot's image.

A container started from an image is exactly the image, so "restoring the snapshot" is just
starting a fresh container, and releasing it is removing it. Guest ports are published on
127.0.0.1 at random host ports, so parallel workers never collide; with ``isolate_network`` the
containers sit on a private network of this provider instead (:mod:`.network`) and the host
reaches them at their own addresses.

Each container runs under the memory, CPU and process limits of its snapshot (:mod:`pytest_spider2v.environments.limits`),
and its environment's faults name the limit it hit (:mod:`.guard`).

Every container carries labels naming the owner (pytest controller) and worker, which lets
:meth:`DockerProvider.cleanup_stale` remove what a crashed run left while leaving the
containers of live parallel workers alone.
"""

from __future__ import annotations

import threading
import time
import uuid
from pathlib import Path
from typing import Any, TypedDict

import docker
from docker.errors import DockerException, ImageNotFound, NotFound
from docker.models.containers import Container
from docker.models.networks import Network

from pytest_spider2v.environments.base import Environment, EnvironmentFault
from pytest_spider2v.environments.limits import Limits
from pytest_spider2v.environments.locations import RECIPES_DIR
from pytest_spider2v.environments.provider import SnapshotTable, left_after, owner_alive
from pytest_spider2v.environments.snapshots import GUEST_SERVER_PORT, Snapshot
from pytest_spider2v.providers.docker.disk import DiskWatch
from pytest_spider2v.providers.docker.environment import DockerEnvironment
from pytest_spider2v.providers.docker.guard import LimitGuard
from pytest_spider2v.providers.docker.network import container_address, create_isolated, remove_isolated
from pytest_spider2v.providers.docker.witness import EngineWitness
from pytest_spider2v.signals.threads import start_background

LABEL = "pytest-spider2v"
OWNER_LABEL = f"{LABEL}.owner"
WORKER_LABEL = f"{LABEL}.worker"
PROVIDER_LABEL = f"{LABEL}.provider"
SNAPSHOT_LABEL = f"{LABEL}.snapshot"
HOSTNAME = "desktop"
#: How often a stopped run's controller looks whether its workers have released their containers.
RUN_RELEASE_POLL = 0.5


class DockerLimits(TypedDict, total=False):
    """The limit keywords of ``containers.run``."""

    mem_limit: int
    memswap_limit: int
    nano_cpus: int
    pids_limit: int


def docker_limits(limits: Limits, host_cpus: int) -> DockerLimits:
    """Keyword arguments of ``containers.run``. CPUs are capped at the daemon's count, which
    Docker would otherwise refuse: a default of two CPUs on a one-CPU host means all of it."""
    options: DockerLimits = {}
    if limits.memory:
        # the same value as memory+swap: no swap, so a hog is stopped rather than slowed to a crawl
        options["mem_limit"] = options["memswap_limit"] = limits.memory
    if limits.cpus:
        options["nano_cpus"] = int(min(limits.cpus, host_cpus) * 1e9)
    if limits.pids:
        options["pids_limit"] = limits.pids
    return options


class DockerProvider:
    """Hands out containers of the images built by ``spider2v-build``.

    With ``spare=True`` (the default) one extra container of the last acquired snapshot is
    started in the background, so that the next acquire of that snapshot finds a desktop
    already up (acquire p50 measured 1.5 s without, 0.3 s with); acquiring another snapshot
    removes it. The spare is never used before
    it is handed out, so it is as pristine as a new one; one that died idle is replaced.

    ``memory`` (``"3g"``, ``"512m"``), ``cpus``, ``pids`` and ``disk`` override the snapshots'
    limits for every container, 0 lifting a limit; ``isolate_network`` cuts the containers off from every
    network but the host's access to their guest ports.
    """

    def __init__(
        self,
        owner: str,
        worker: str,
        *,
        environments_dir: Path = RECIPES_DIR,
        ready_timeout: float = 120.0,
        shm_size: str = "1g",
        spare: bool = True,
        memory: str | int | None = None,
        cpus: float | str | None = None,
        pids: int | str | None = None,
        disk: str | int | None = None,
        isolate_network: bool = False,
        client: docker.DockerClient | None = None,
    ) -> None:
        self.owner = owner
        self.worker = worker
        self.ready_timeout = ready_timeout
        self.shm_size = shm_size
        self.spare = spare
        self.table = SnapshotTable(environments_dir, "docker", memory=memory, cpus=cpus, pids=pids, disk=disk)
        self.instance = uuid.uuid4().hex[:12]
        try:
            self.client = client or docker.from_env(timeout=120)
            self.client.ping()
            self.host_cpus = int(self.client.info()["NCPU"])
            # commands through the engine may run for minutes in silence: the witness keeps its own deadline
            self.exec_api = client.api if client is not None else docker.from_env(timeout=None).api  # type: ignore[arg-type]
        except DockerException as exc:
            raise EnvironmentFault(f"docker provider: cannot reach the Docker daemon: {exc}") from exc
        self.network: Network | None = None
        if isolate_network:
            self.network = create_isolated(self.client, f"spider2v-{worker}-{self.instance}",
                                           f"s2v-{self.instance[:11]}", self._labels())
        self._containers: dict[str, Container] = {}  # environment name -> container
        self._spares: dict[str, Container] = {}  # snapshot name -> booting spare
        self._lock = threading.Lock()
        self._spare_thread: threading.Thread | None = None

    # -- provider protocol ------------------------------------------------------------------
    def acquire(self, snapshot: str) -> Environment:
        spec = self._snapshot(snapshot)
        env = None
        spare = self._take_spare(spec)
        if spare is not None:
            try:
                env = self._ready(spare, spec)
            except EnvironmentFault:
                env = None  # a spare that died idle is discarded; start a fresh one instead
        if env is None:
            env = self._ready(self._run(spec), spec)
        if self.spare:
            self._drop_spares(keep=spec.name)
            self._spare_thread = start_background(self._start_spare, spec, name="spider2v-spare")
        return env

    def release(self, env: Environment) -> None:
        env.close()
        with self._lock:
            container = self._containers.pop(env.name, None)
        if container is not None:
            self._remove(container)

    def close(self) -> None:
        if self._spare_thread is not None:
            self._spare_thread.join()
        with self._lock:
            containers = list(self._containers.values()) + list(self._spares.values())
            self._containers.clear()
            self._spares.clear()
        for container in containers:
            self._remove(container)
        # Also anything of this instance that was created but never recorded (interrupted run).
        for container in self._labelled({PROVIDER_LABEL: self.instance}):
            self._remove(container)
        if self.network is not None:
            remove_isolated(self.network)
            self.network = None

    def cleanup_stale(self) -> int:
        removed = 0
        for container in self._labelled({}):
            if not owner_alive(container.labels.get(OWNER_LABEL, "")):
                self._remove(container)
                removed += 1
        # networks after containers: Docker removes no network that still has one attached
        for network in self.client.networks.list(filters={"label": f"{LABEL}=1"}):
            if not owner_alive(network.attrs.get("Labels", {}).get(OWNER_LABEL, "")):
                remove_isolated(network)
        return removed

    def remove_run(self, wait: float = 0.0) -> int:
        left = left_after(lambda: self._labelled({OWNER_LABEL: self.owner}), wait, RUN_RELEASE_POLL)
        for container in left:
            self._remove(container)
        for network in self.client.networks.list(filters={"label": f"{OWNER_LABEL}={self.owner}"}):
            remove_isolated(network)  # this provider's own among them
        self.network = None
        return len(left)

    def limits_of(self, snapshot: str) -> Limits:
        """The limits a container of ``snapshot`` runs under: the run's options over the table's."""
        return self.table.limits_of(snapshot)

    # -- helpers ----------------------------------------------------------------------------
    def _snapshot(self, name: str) -> Snapshot:
        spec = self.table[name]
        try:
            self.client.images.get(spec.image)
        except ImageNotFound:
            raise EnvironmentFault(
                f"docker provider: image {spec.image} for snapshot {name!r} is not built; "
                f"run `spider2v-build {spec.recipe}`"
            ) from None
        return spec

    def _run(self, spec: Snapshot, *, spare: bool = False) -> Container:
        name = f"spider2v-{self.worker}-{uuid.uuid4().hex[:8]}"
        try:
            container = self.client.containers.run(
                spec.image,
                name=name,
                # the same hostname in every container: prompts, terminals and trees must not
                # differ between two restores of one snapshot
                hostname=HOSTNAME,
                detach=True,
                init=True,
                shm_size=self.shm_size,
                labels={**self._labels(), SNAPSHOT_LABEL: spec.name},
                # an isolated network cannot publish ports: the host uses the container's address
                network=None if self.network is None else self.network.name,
                ports=self._published(spec) if self.network is None else None,
                **docker_limits(self.limits_of(spec.name), self.host_cpus),
            )
        except DockerException as exc:
            raise EnvironmentFault(f"docker provider: cannot start {spec.image}: {exc}") from exc
        with self._lock:
            (self._spares if spare else self._containers)[spec.name if spare else name] = container
        return container

    @staticmethod
    def _published(spec: Snapshot) -> dict[str, Any]:
        """Guest ports published on 127.0.0.1 at host ports Docker picks (``(ip,)``: any port)."""
        return {f"{port}/tcp": ("127.0.0.1",) for port in spec.ports}

    def _environment(self, container: Container, spec: Snapshot) -> DockerEnvironment:
        host, ports = self._guest_ports(container, spec)
        guard = LimitGuard(container, self.limits_of(spec.name))
        return DockerEnvironment(str(container.name), f"http://{host}:{ports[GUEST_SERVER_PORT]}", ports,
                                 display=spec.display, host=host, guard=guard,
                                 image=f'{container.attrs["Config"]["Image"]}@{container.attrs["Image"]}')

    def _witness(self, container: Container, spec: Snapshot) -> EngineWitness:
        """The container seen from its engine; made before any agent acts in it."""
        user = str(container.attrs["Config"].get("User") or "root").split(":")[0]
        return EngineWitness(container, self.exec_api, user=user, ports=spec.ports)

    def _guest_ports(self, container: Container, spec: Snapshot, timeout: float = 10.0) -> tuple[str, dict[int, int]]:
        """Where the host reaches the guest ports: the host ports Docker published on 127.0.0.1,
        or the container's address on the isolated network. Polled: both appear only once the
        container runs."""
        deadline = time.monotonic() + timeout
        while True:
            container.reload()
            if self.network is not None:
                address = container_address(self.network, container.attrs)
                if address is not None:
                    return address, {p: p for p in spec.ports}
            else:
                bindings = container.attrs["NetworkSettings"]["Ports"] or {}
                ports = {p: int(bindings[f"{p}/tcp"][0]["HostPort"]) for p in spec.ports if bindings.get(f"{p}/tcp")}
                if len(ports) == len(spec.ports):
                    return "127.0.0.1", ports
            if container.status == "exited" or time.monotonic() > deadline:
                logs = self._logs(container)
                self._remove(container)
                raise EnvironmentFault(f"docker provider: {container.name} has no reachable ports ({container.status})\n{logs}")
            time.sleep(0.1)

    def _ready(self, container: Container, spec: Snapshot) -> Environment:
        """The container's environment once it answers ready; removes the container if it never does."""
        env = self._environment(container, spec)
        try:
            self._wait_ready(env, container)
            env.witness = self._witness(container, spec)
            disk = self.limits_of(spec.name).disk
            if disk:
                env.guard.disk = DiskWatch(env.witness, disk)
        except EnvironmentFault as exc:
            logs = self._logs(container)
            self.release(env)
            raise EnvironmentFault(f"{exc}\n--- last container output ---\n{logs}") from exc
        return env

    def _wait_ready(self, env: DockerEnvironment, container: Container) -> None:
        """Poll ``/health``, and fail at once when the container has died instead of timing out."""
        deadline = time.monotonic() + self.ready_timeout
        while True:
            try:
                env.wait_ready(timeout=min(2.0, max(0.1, deadline - time.monotonic())), interval=0.1)
                return
            except EnvironmentFault:
                breach = env.guard.breach(inspect=True)  # reloads the container, status included
                if breach is not None:
                    raise EnvironmentFault(f"{env.name}: {breach} while starting") from None
                if container.status != "running":
                    raise EnvironmentFault(f"{env.name}: container {container.status} while starting") from None
                if time.monotonic() >= deadline:
                    raise

    def _start_spare(self, spec: Snapshot) -> None:
        with self._lock:
            if spec.name in self._spares:
                return
        try:
            self._run(spec, spare=True)
        except EnvironmentFault:
            pass  # the next acquire starts its own container and reports the error

    def _drop_spares(self, keep: str) -> None:
        """Remove the spares of other snapshots: only the last acquired one's is likely next (tasks
        run family by family), and every idle desktop costs the machine memory and CPU (a worker
        that had visited six families kept six)."""
        if self._spare_thread is not None:
            self._spare_thread.join()  # a spare still starting is in the table once it has started
        with self._lock:
            others = [name for name in self._spares if name != keep]
            dropped = [self._spares.pop(name) for name in others]
        for container in dropped:
            self._remove(container)

    def _take_spare(self, spec: Snapshot) -> Container | None:
        """The booting spare for this snapshot, unless its image has been rebuilt since."""
        with self._lock:
            container = self._spares.pop(spec.name, None)
        if container is None:
            return None
        if container.attrs["Image"] != self.client.images.get(spec.image).id:
            self._remove(container)
            return None
        with self._lock:
            self._containers[str(container.name)] = container
        return container

    def _labels(self) -> dict[str, str]:
        return {LABEL: "1", OWNER_LABEL: self.owner, WORKER_LABEL: self.worker, PROVIDER_LABEL: self.instance}

    def _labelled(self, extra: dict[str, str]) -> list[Container]:
        filters = [f"{LABEL}=1", *(f"{k}={v}" for k, v in extra.items())]
        return self.client.containers.list(all=True, filters={"label": filters},
                                           ignore_removed=True)  # another run may be removing some

    def _remove(self, container: Container) -> None:
        try:
            container.remove(force=True)
        except NotFound:
            pass
        except DockerException as exc:
            if "already in progress" not in str(exc):
                raise

    @staticmethod
    def _logs(container: Container) -> str:
        try:
            return container.logs(tail=40).decode(errors="replace")
        except DockerException:
            return "(no logs)"


def factory(owner: str, worker: str, **options: Any) -> DockerProvider:
    """One provider per pytest worker; the ``providers`` registry entry (in :mod:`pytest_spider2v.providers`) calls it."""
    return DockerProvider(owner, worker, **options)
