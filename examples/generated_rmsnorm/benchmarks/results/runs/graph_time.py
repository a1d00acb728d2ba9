"""Device time of calls replayed from a CUDA graph, as the labs time it (j/modes.py, j/modes2.py,
l/lab_l4.py): `call(s)` for each set once, to warm up, then `rounds` times over the sets captured in
one graph, replayed `replays` times between CUDA events; the median, in microseconds, of one call.
A lab imports it with its folder's parent on sys.path (see those scripts)."""

import statistics

import torch


def capture(call, sets, rounds=2):
    """The graph of `rounds` passes of `call` over `sets`, after one call on each set outside it."""
    for s in sets:
        call(s)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(rounds):
            for s in sets:
                call(s)
    return graph


def replay_us(graph, calls, replays=20):
    """The median device time, in microseconds, of one of the graph's `calls` calls."""
    times = []
    for _ in range(replays):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) * 1e3 / calls)
    return statistics.median(times)


def graph_us(call, sets, rounds=2, replays=20):
    """capture, then replay_us; the graph is freed before it returns."""
    graph = capture(call, sets, rounds)
    time = replay_us(graph, rounds * len(sets), replays)
    del graph
    return time
