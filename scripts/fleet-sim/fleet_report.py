"""What a phase showed, as numbers (a dict for results.json) and as the lines `make fleet-sim` prints."""

from __future__ import annotations

import math
import statistics

from fleet_metrics import hourly, peak_per_hour, percentile, spread_histogram
from fleet_phase import REFRESH_LIMIT, SIGN_UP_LIMIT, PhaseResult
from fleet_svg import line_plot

OPERATIONS = {"signInAnonymously": SIGN_UP_LIMIT, "refresh": REFRESH_LIMIT}


def summary(result: PhaseResult, limits: dict[str, tuple[float, int]]) -> dict:
    s = result.settings
    hour = s.hour
    firsts = [m.first_issued - result.start for m in result.machines if m.first_issued]
    fractions = [f for m in result.machines for f in m.refreshes]
    fleet_events = [e for e in result.events if e[1].count("|") == 1]
    sources = sorted({m.source for m in result.machines})
    operations = {}
    for operation, limit_names in OPERATIONS.items():
        limit_name = limit_names[result.provider]
        rate, burst = limits[limit_name] if limit_name else (math.nan, 0)
        admitted = [(t, k.split("|")[0], n) for t, k, n in result.events
                    if k.count("|") == 2 and k.split("|")[1] == operation and not k.endswith("|rate_limited")]
        peaks = [peak_per_hour(admitted, source, hour) for source in sources]
        refused = sum(n for _, k, n in fleet_events if k == f"{operation}|rate_limited")
        total = sum(n for _, k, n in fleet_events if k.startswith(operation + "|"))
        operations[operation] = {
            "limit": limit_name, "limit_per_hour": rate, "burst": burst, "requests": total, "rate_limited": refused,
            "busiest_address_peak_per_hour": max(peaks, default=0.0),
            "per_hour": [h.get(operation, 0.0) for h in hourly(
                [(t, k.split("|")[0], n) for t, k, n in fleet_events], result.start, hour)],
        }
    memory = [kib / 1024 for kib in result.memory_kib]
    emulator_limits = {}
    for name, after in result.limits_after.items():
        before = result.limits_before.get(name, {})
        admitted = after["admitted"] - before.get("admitted", 0)
        refused = after["refused"] - before.get("refused", 0)
        if admitted or refused:
            emulator_limits[name] = {"admitted": admitted, "refused": refused}
    backend_routes: dict[str, float] = {}
    for _, route, n in result.backend:
        backend_routes[route] = backend_routes.get(route, 0) + n
    return {
        "provider": result.provider, "machines": len(result.machines), "addresses": result.addresses,
        "scale": s.scale, "token_lifetime_s": round(hour), "refresh_margin_s": s.margin,
        "first_guest_window_s": result.window, "first_guest_window_h": result.window / hour,
        "spawn_s": result.spawn_seconds, "stopped_by": result.stopped_by,
        "simulated_hours": (result.end - result.start) / hour,
        "with_session": len(firsts),
        "all_sessions_h": max(firsts) / hour if len(firsts) == len(result.machines) else None,
        "median_session_h": statistics.median(firsts) / hour if firsts else None,
        "operations": operations,
        "backend_calls": backend_routes,
        "emulator_limits": emulator_limits,
        "refreshes": len(fractions),
        "refresh_fraction": {"min": min(fractions, default=math.nan), "p50": percentile(fractions, 0.5),
                             "p99": percentile(fractions, 0.99), "max": max(fractions, default=math.nan)},
        "refresh_histogram": spread_histogram(fractions),
        "lapsed_tokens": sum(1 for f in fractions if f >= 1),
        "sign_outs": sum((m.last.sign_outs if m.last else 0) + m.lost_session + m.sign_outs_before
                         for m in result.machines),
        "restart": _restart_summary(result, fleet_events),
        "memory_mib": {"p50": percentile(memory, 0.5), "p95": percentile(memory, 0.95),
                       "max": max(memory, default=math.nan), "total": sum(memory)},
        "died": result.died, "killed_at_stop": result.killed,
    }


def _restart_summary(result: PhaseResult, fleet_events: list[tuple[float, str, float]]) -> dict | None:
    if not result.restart_at:
        return None
    hour = result.settings.hour
    fresh = [m.restart_issued - result.restart_at for m in result.machines if m.restart_issued]
    after = [(k, n) for t, k, n in fleet_events if t >= result.restart_at]
    return {"offline_h": result.settings.restart_offline_hours, "spawn_s": result.restart_spawn_seconds,
            "all_fresh_h": max(fresh) / hour if len(fresh) == len(result.machines) else None,
            "median_fresh_h": statistics.median(fresh) / hour if fresh else None, "with_fresh_token": len(fresh),
            "refresh_requests": sum(n for k, n in after if k.startswith("refresh|")),
            "refresh_rate_limited": sum(n for k, n in after if k == "refresh|rate_limited"),
            "sign_ups": sum(n for k, n in after if k.startswith("signInAnonymously|")),
            "stopped_by": result.restart_stopped_by}


def lines(report: dict) -> list[str]:
    r = report
    out = [f"== {r['provider']}: {r['machines']} machines behind {r['addresses']} address(es); 1 simulated hour = "
           f"{3600 / r['scale']:g} s (token lifetime {r['token_lifetime_s']} s, "
           f"refresh_margin {r['refresh_margin_s']} s, "
           f"first_guest_window {r['first_guest_window_s']} s = {r['first_guest_window_h']:.2f} h)",
           f"   processes spawned in {r['spawn_s']:.1f} s, then started together; watched {r['simulated_hours']:.2f} "
           f"simulated h "
           f"(stopped: {r['stopped_by']})"]
    if r["all_sessions_h"] is not None:
        out.append(f"   every machine had a session after {r['all_sessions_h']:.2f} simulated h "
                   f"(median {r['median_session_h']:.2f} h)")
    else:
        out.append(f"   NOT every machine had a session: {r['with_session']}/{r['machines']}")
    for operation, o in r["operations"].items():
        limit = (f"limit {o['limit']} {o['limit_per_hour']:g}/h per address, burst {o['burst']}"
                 if o["limit"] else "no documented per-address limit")
        hours = ", ".join(f"{n:g}" for n in o["per_hour"][:12]) + (" …" if len(o["per_hour"]) > 12 else "")
        out.append(f"   {operation}: {o['requests']:g} requests, {o['rate_limited']:g} answered 429; busiest address "
                   f"{o['busiest_address_peak_per_hour']:g} admitted in one sliding hour ({limit})")
        out.append(f"      fleet per simulated hour: {hours}")
    if r["emulator_limits"]:
        out.append("   emulator's buckets: " + "; ".join(f"{name} admitted {v['admitted']}, refused {v['refused']}"
                                                      for name, v in r["emulator_limits"].items()))
    out.append("   backend calls: " + ", ".join(f"{k} {v:g}" for k, v in sorted(r["backend_calls"].items())))
    f = r["refresh_fraction"]
    out.append(f"   refreshes {r['refreshes']}, at {f['min']:.3f} / {f['p50']:.3f} / {f['p99']:.3f} / "
               f"{f['max']:.3f} of "
               f"the lifetime (min / p50 / p99 / max); lapsed tokens {r['lapsed_tokens']}")
    histogram = r["refresh_histogram"]
    shown = [f"{i * 5}-{i * 5 + 5}%: {n}" for i, n in enumerate(histogram) if n]
    out.append("   refresh spread over the lifetime: " + (", ".join(shown) or "none"))
    out.append(f"   sign-outs: {r['sign_outs']:g} (must be 0); daemons died: {len(r['died'])}; "
               f"killed at stop: {r['killed_at_stop']}")
    restart = r["restart"]
    if restart:
        fresh = (f"every machine had a fresh token after {restart['all_fresh_h']:.2f} simulated h "
                 f"(median {restart['median_fresh_h']:.2f} h)" if restart["all_fresh_h"] is not None else
                 f"NOT every machine got a fresh token: {restart['with_fresh_token']}/{r['machines']}")
        out.append(f"   restarted together after {restart['offline_h']:g} simulated h off (spawned in "
                   f"{restart['spawn_s']:.1f} s): {fresh}; {restart['refresh_requests']:g} refreshes, "
                   f"{restart['refresh_rate_limited']:g} answered 429; {restart['sign_ups']:g} sign-ups")
    m = r["memory_mib"]
    out.append(f"   private memory per daemon: p50 {m['p50']:.2f} MiB, p95 {m['p95']:.2f}, max {m['max']:.2f}; "
               f"all {m['total'] / 1024:.2f} GiB")
    return out


def plot(result: PhaseResult, limits: dict[str, tuple[float, int]], bin_seconds: float) -> str:
    """Requests per simulated hour (a rate, over bins of `bin_seconds`) by operation and outcome."""
    hour = result.settings.hour
    series: dict[str, list[tuple[float, float]]] = {}
    bins = max(1, math.ceil((result.end - result.start) / bin_seconds))
    for t, key, n in result.events:
        if key.count("|") != 1:
            continue
        values = series.setdefault(key.replace("|", " "), [(i * bin_seconds / hour, 0.0) for i in range(bins)])
        index = min(bins - 1, int((t - result.start) // bin_seconds))
        values[index] = (values[index][0], values[index][1] + n * hour / bin_seconds)
    levels = {}
    for operation, names in OPERATIONS.items():
        name = names[result.provider]
        if name:
            levels[f"{name} × {result.addresses}"] = limits[name][0] * result.addresses
    title = (f"{result.provider}: {len(result.machines)} machines behind {result.addresses} address(es), "
             f"requests per simulated hour")
    return line_plot(title, "simulated hours", "requests per hour (fleet)", dict(sorted(series.items())), levels)
