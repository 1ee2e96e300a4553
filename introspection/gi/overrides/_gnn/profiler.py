# torch.profiler (and torch.autograd.profiler): profile, record_function, ProfilerActivity
#
# The recording is GnnProfiler's (gnn/profiler/gnn-profiler.c): every kernel call, module
# forward, autograd node, optimizer step and user range, on every thread. These classes give it
# torch's spellings: `with torch.profiler.profile(...) as prof:`, `prof.events()`, and
# `with torch.profiler.record_function("name"):`. Times are in microseconds, as torch's.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import enum as _enum
import functools as _functools
import json as _json

from .base import Gnn

__all__ = []


def _export(obj):
    __all__.append(obj.__name__)
    return obj


def _runtime_error(e):
    """A GLib.Error of the profiler's misuse as the RuntimeError torch raises."""
    return RuntimeError(getattr(e, 'message', str(e)))


@_export
class profiler_ProfilerActivity(_enum.Enum):
    """torch.profiler.ProfilerActivity: what to record. gnn records the host side of every
    backend (CPU), and the device times of kernels on a backend that times its device (CUDA,
    from CUDA events) whichever activities are asked for."""
    CPU = 0
    CUDA = 1


@_export
class profiler_ProfilerAction(_enum.Enum):
    """torch.profiler.ProfilerAction: what a schedule does at a step (Gnn.ProfilerAction)."""
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


class _Schedule:
    """What torch.profiler.schedule returns: a callable step -> ProfilerAction, whose
    parameters GnnProfiler runs itself."""

    def __init__(self, wait, warmup, active, repeat, skip_first):
        if wait < 0 or warmup < 0 or active <= 0 or repeat < 0 or skip_first < 0:
            raise ValueError('Invalid profiler schedule arguments')
        self.wait, self.warmup, self.active = wait, warmup, active
        self.repeat, self.skip_first = repeat, skip_first

    def __call__(self, step):
        return profiler_ProfilerAction(int(Gnn.Profiler.schedule_action(
            self.wait, self.warmup, self.active, self.repeat, self.skip_first, step)))


@_export
def profiler_schedule(*, wait, warmup, active, repeat=0, skip_first=0):
    """torch.profiler.schedule: skip_first steps, then cycles of wait (not recorded), warmup
    (not recorded) and active (recorded) steps, repeat times (0: without end); the last active
    step of each cycle hands the profile to on_trace_ready."""
    return _Schedule(wait, warmup, active, repeat, skip_first)


@_export
class profiler_FunctionEvent:
    """torch.autograd.profiler_util.FunctionEvent: one recorded range (a Gnn.ProfilerEvent),
    times in microseconds."""

    def __init__(self, event):
        self._event = event
        self.id = event.get_id()
        self.name = event.get_name()
        self.key = self.name
        self.kind = event.get_kind()
        parent = event.get_parent_id()
        self.cpu_parent_id = None if parent < 0 else parent
        self.thread = event.get_thread()
        self.time_range_start = event.get_start_ns() / 1000.0
        self.cpu_time_total = event.get_duration_ns() / 1000.0
        self.self_cpu_time_total = event.get_self_ns() / 1000.0
        self.cpu_time = self.cpu_time_total
        # device times (CUDA events), 0 for a kernel on the CPU
        self.cuda_time_total = event.get_device_duration_ns() / 1000.0
        self.self_cuda_time_total = event.get_self_device_ns() / 1000.0
        self.cuda_time = self.cuda_time_total
        self.count = 1
        self.flops = event.get_flops()
        shapes = event.get_input_shapes()
        self.input_shapes = _json.loads(shapes) if shapes is not None else []
        self.dtype = event.get_dtype()
        self.backend = event.get_backend()
        self.device = event.get_device()
        # profile_memory: bytes allocated less freed, with the children's and without
        self.cpu_memory_usage = event.get_cpu_memory_usage()
        self.self_cpu_memory_usage = event.get_self_cpu_memory_usage()
        self.cuda_memory_usage = event.get_cuda_memory_usage()
        self.self_cuda_memory_usage = event.get_self_cuda_memory_usage()

    @property
    def time_range_end(self):
        return self.time_range_start + self.cpu_time_total

    def __repr__(self):
        return '<FunctionEvent id=%d name=%s cpu_time=%.3fus self_cpu_time=%.3fus input_shapes=%s>' % (
            self.id, self.name, self.cpu_time_total, self.self_cpu_time_total, self.input_shapes)


class profiler_FunctionEventAvg:
    """torch.autograd.profiler_util.FunctionEventAvg: the events of one key averaged (a
    Gnn.ProfilerAverage), times in microseconds."""

    def __init__(self, average):
        self.key = average.get_key()
        self.count = average.get_count()
        self.cpu_time_total = average.get_cpu_time_total()
        self.self_cpu_time_total = average.get_self_cpu_time_total()
        self.cpu_time = average.get_cpu_time()
        self.cuda_time_total = average.get_cuda_time_total()
        self.self_cuda_time_total = average.get_self_cuda_time_total()
        self.cuda_time = average.get_cuda_time()
        self.flops = average.get_flops()
        self.cpu_memory_usage = average.get_cpu_memory_usage()
        self.self_cpu_memory_usage = average.get_self_cpu_memory_usage()
        self.cuda_memory_usage = average.get_cuda_memory_usage()
        self.self_cuda_memory_usage = average.get_self_cuda_memory_usage()
        shapes = average.get_input_shapes()
        # torch: "" when not grouped by input shape
        self.input_shapes = _json.loads(shapes) if shapes is not None else ""

    def __repr__(self):
        return '<FunctionEventAvg key=%s self_cpu_time=%.3fus cpu_time=%.3fus input_shapes=%s>' % (
            self.key, self.self_cpu_time_total, self.cpu_time, self.input_shapes)


class profiler_EventList(list):
    """torch.autograd.profiler_util.EventList of averages: a list, and table() printed by
    GnnProfiler in torch's layout."""

    def __init__(self, items, profiler, group_by_input_shape):
        super().__init__(items)
        self._profiler = profiler
        self._group = group_by_input_shape

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75, max_name_column_width=55,
              max_shapes_column_width=80, header=None, top_level_events_only=False):
        """The averages as torch's table; sort_by one of self_cpu_time_total, cpu_time_total,
        cpu_time, count, flops, self_cuda_time_total, cuda_time_total, cuda_time,
        cpu_memory_usage, self_cpu_memory_usage, cuda_memory_usage, self_cuda_memory_usage (or
        None). A profile with profile_memory has torch's CPU Mem and Self CPU Mem columns."""
        from gi.repository import GLib
        try:
            text = self._profiler.table(self._group, sort_by, -1 if row_limit is None else row_limit)
        except GLib.Error as e:
            raise ValueError(getattr(e, 'message', str(e))) from None
        if header is not None and text:
            width = len(text.split('\n', 1)[0])
            text = '=' * width + '\n' + header + '\n' + text
        return text

    def __str__(self):
        return self.table()


@_export
class profiler_record_function:
    """torch.profiler.record_function(name): a user range, as a `with` block or a decorator.
    Recorded when a profiler records; otherwise it costs a call in and out."""

    def __init__(self, name, args=None):
        self.name = name
        self.args = args

    def __enter__(self):
        Gnn.Profiler.record_function_begin(self.name)
        return self

    def __exit__(self, *exc):
        Gnn.Profiler.record_function_end()
        return False

    def __call__(self, fn):
        @_functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with profiler_record_function(self.name):
                return fn(*args, **kwargs)
        return wrapper


@_export
class profiler_profile:
    """torch.profiler.profile: records between start() and stop() (or in a `with` block).
    activities, record_shapes, with_flops and profile_memory as torch's; with_stack and
    with_modules are accepted and record nothing more (module ranges are always recorded)."""

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None,
                 record_shapes=False, profile_memory=False, with_stack=False, with_flops=False,
                 with_modules=False, experimental_config=None, use_cuda=None):
        if activities is not None:
            for a in activities:
                if not isinstance(a, profiler_ProfilerActivity):
                    raise ValueError('profile: activities must be ProfilerActivity values, not %r' % (a,))
        self.activities = set(activities) if activities is not None else {profiler_ProfilerActivity.CPU}
        self.record_shapes = record_shapes
        self.with_flops = with_flops
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_modules = with_modules
        self.profiler = Gnn.Profiler(record_shapes=record_shapes, with_flops=with_flops,
                                     profile_memory=bool(profile_memory))
        self._events = None
        self.schedule = schedule
        self.on_trace_ready = on_trace_ready
        if schedule is not None:
            if not isinstance(schedule, _Schedule):
                raise TypeError('profile: schedule must come from torch.profiler.schedule(...); '
                                'gnn runs its schedule in C and cannot call another function')
            self.profiler.set_schedule(schedule.wait, schedule.warmup, schedule.active,
                                       schedule.repeat, schedule.skip_first)
        if on_trace_ready is not None:
            self.profiler.connect('trace-ready', self._trace_ready)

    def _trace_ready(self, _profiler):
        self._events = None
        self.on_trace_ready(self)

    @property
    def step_num(self):
        return self.profiler.get_step_num()

    def step(self):
        """Signals that the next step begins (ProfilerStep#N ranges, the schedule)."""
        from gi.repository import GLib
        self._events = None
        try:
            self.profiler.step()
        except GLib.Error as e:
            raise _runtime_error(e) from None

    def export_chrome_trace(self, path):
        """Writes the profile as a Chrome trace ({"traceEvents": [...]}) for Perfetto or
        chrome://tracing; an unwritable path raises OSError (GLib.Error) naming it."""
        self.profiler.export_chrome_trace(str(path))

    def start(self):
        from gi.repository import GLib
        self._events = None
        try:
            self.profiler.start()
        except GLib.Error as e:
            raise _runtime_error(e) from None

    def stop(self):
        from gi.repository import GLib
        try:
            self.profiler.stop()
        except GLib.Error as e:
            raise _runtime_error(e) from None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def events(self):
        """The recorded events (FunctionEvent), in the order they began."""
        if self._events is None:
            self._events = [profiler_FunctionEvent(e) for e in self.profiler.get_events()]
        return self._events

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0):
        """The events averaged by name (and input shapes): an EventList whose table() prints
        torch's table."""
        return profiler_EventList([profiler_FunctionEventAvg(a) for a in
                                   self.profiler.key_averages(group_by_input_shape)],
                                  self.profiler, group_by_input_shape)

    def table(self, sort_by=None, row_limit=100, **kwargs):
        """torch.autograd.profiler.profile.table: key_averages().table(...)."""
        return self.key_averages().table(sort_by=sort_by, row_limit=row_limit, **kwargs)


@_export
class autograd_profiler_profile(profiler_profile):
    """torch.autograd.profiler.profile: the older spelling, `enabled` first; a disabled one
    records nothing."""

    def __init__(self, enabled=True, *, use_cuda=False, record_shapes=False, with_flops=False,
                 profile_memory=False, with_stack=False, with_modules=False, use_kineto=False,
                 use_cpu=True, experimental_config=None):
        super().__init__(record_shapes=record_shapes, with_flops=with_flops, profile_memory=profile_memory,
                         with_stack=with_stack, with_modules=with_modules)
        self.enabled = enabled

    def start(self):
        if self.enabled:
            super().start()

    def stop(self):
        if self.enabled:
            super().stop()

    def __enter__(self):
        # as torch's: a disabled profiler's `with` gives None
        if not self.enabled:
            return None
        return super().__enter__()

    def events(self):
        return super().events() if self.enabled else []


class _Namespace:
    """Gnn.profiler: the profiler's torch spellings under one name
    (`with Gnn.profiler.record_function("name"):`)."""

    def __init__(self, **names):
        self.__dict__.update(names)

    def __repr__(self):
        return '<Gnn.profiler: %s>' % ', '.join(sorted(self.__dict__))


profiler = _Namespace(profile=profiler_profile, record_function=profiler_record_function,
                      ProfilerActivity=profiler_ProfilerActivity, FunctionEvent=profiler_FunctionEvent,
                      ProfilerAction=profiler_ProfilerAction, schedule=profiler_schedule)
__all__.append('profiler')
