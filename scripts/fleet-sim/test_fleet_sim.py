"""The pure parts of `make fleet-sim`: run with `python3 -m unittest discover -s scripts/fleet-sim`."""

from __future__ import annotations

import math
import os
import sys
import unittest
import xml.dom.minidom

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fleet_metrics import (counter_deltas, hourly, parse_prometheus, peak_per_hour, percentile,  # noqa: E402
                           reading, spread_histogram)
from fleet_svg import line_plot, nice_step  # noqa: E402

# As sesamed writes it (docs/systemd.md, Metrics), shortened.
DAEMON_FILE = """# HELP sesame_backend_requests_total Requests to the backend, by operation.
# TYPE sesame_backend_requests_total counter
sesame_backend_requests_total{operation="signInAnonymously",outcome="ok"} 1
sesame_backend_requests_total{operation="refresh",outcome="ok"} 3
sesame_backend_requests_total{operation="refresh",outcome="rate_limited"} 2
# TYPE sesame_session_changes_total counter
sesame_session_changes_total{reason="anonymous-created"} 1
# TYPE sesame_token_issued_timestamp_seconds gauge
sesame_token_issued_timestamp_seconds 1795947022.2668762
sesame_token_expiry_timestamp_seconds 1795947082.2668762
sesame_session_status{status="starting"} 0.0
sesame_session_status{status="anonymous"} 1.0
sesame_connectivity{state="rate-limited"} 1.0
sesame_connectivity{state="online"} 0.0
sesame_connections 0.0
"""


class PrometheusTextTests(unittest.TestCase):
    def test_samples_are_read_by_name_and_labels(self) -> None:
        samples = parse_prometheus(DAEMON_FILE)
        self.assertEqual(samples[("sesame_backend_requests_total", (("operation", "refresh"), ("outcome", "ok")))], 3)
        self.assertEqual(samples[("sesame_connections", ())], 0)
        self.assertEqual(samples[("sesame_token_issued_timestamp_seconds", ())], 1795947022.2668762)

    def test_escaped_label_values_and_timestamps(self) -> None:
        samples = parse_prometheus('m{a="x\\"y",b="1\\\\2"} 4 1700000000000\n')
        self.assertEqual(samples[("m", (("a", 'x"y'), ("b", "1\\2")))], 4)

    def test_a_line_that_is_no_sample_is_refused(self) -> None:
        with self.assertRaises(ValueError):
            parse_prometheus("sesame_connections\n")

    def test_a_reading_names_status_connectivity_and_sign_outs(self) -> None:
        machine = reading(parse_prometheus(DAEMON_FILE + 'sesame_session_changes_total{reason="session-revoked"} 1\n'))
        self.assertEqual(machine.status, "anonymous")
        self.assertTrue(machine.has_session)
        self.assertEqual(machine.connectivity, "rate-limited")
        self.assertEqual(machine.requests[("refresh", "rate_limited")], 2)
        self.assertEqual(machine.token_expiry - machine.token_issued, 60)
        self.assertEqual(machine.sign_outs, 1)


class AccountingTests(unittest.TestCase):
    def test_counter_deltas_count_new_keys_from_zero_and_restarts_again(self) -> None:
        self.assertEqual(counter_deltas({"a": 2, "b": 5}, {"a": 3, "b": 1, "c": 4}), {"a": 1, "b": 1, "c": 4})

    def test_events_are_summed_per_simulated_hour(self) -> None:
        events = [(100.0, "refresh", 2), (159.9, "refresh", 1), (160.0, "refresh", 5), (161, "signUp", 1),
                  (99.0, "refresh", 7), (400.0, "signUp", 0)]
        self.assertEqual(hourly(events, start=100, hour_seconds=60), [{"refresh": 3}, {"refresh": 5, "signUp": 1}])

    def test_the_peak_is_over_a_sliding_hour(self) -> None:
        # 3 at the end of hour 0 and 3 at the start of hour 1: aligned hours see 3, a bucket 6.
        events = [(50.0, "a", 3), (65.0, "a", 3), (200.0, "a", 1), (10.0, "b", 9)]
        self.assertEqual(peak_per_hour(events, "a", 60), 6)
        self.assertEqual(peak_per_hour(events, "c", 60), 0)

    def test_the_refresh_spread_counts_twentieths_of_the_lifetime(self) -> None:
        counts = spread_histogram([0.0, 0.049, 0.05, 0.91, 0.999, 1.0, 1.7, math.nan])
        self.assertEqual(counts[0], 2)
        self.assertEqual(counts[1], 1)
        self.assertEqual(counts[18], 1)
        self.assertEqual(counts[19], 3)  # 0.999, and the lapsed 1.0 and 1.7
        self.assertEqual(sum(counts), 7)

    def test_percentiles_are_nearest_rank(self) -> None:
        self.assertEqual(percentile([5, 1, 3, 2, 4], 0.5), 3)
        self.assertEqual(percentile([5, 1, 3, 2, 4], 0.99), 5)
        self.assertTrue(math.isnan(percentile([], 0.5)))


class SVGTests(unittest.TestCase):
    def test_the_plot_is_well_formed_svg_with_a_line_per_series_and_limit(self) -> None:
        svg = line_plot("a <title>", "hours", "requests", {"refresh ok": [(0, 0), (1, 1000), (2, 990)],
                                                           "signInAnonymously ok": [(0, 100), (1, 0)]},
                        {"token_refresh × 1": 1800})
        document = xml.dom.minidom.parseString(svg)
        self.assertEqual(document.documentElement.tagName, "svg")
        self.assertEqual(len(document.getElementsByTagName("polyline")), 2)
        texts = [node.firstChild.data for node in document.getElementsByTagName("text")]
        self.assertIn("a <title>", texts)
        self.assertIn("token_refresh × 1", texts)
        dashed = [line for line in document.getElementsByTagName("line") if line.getAttribute("stroke-dasharray")]
        self.assertEqual(len(dashed), 2)  # the level and its legend

    def test_an_empty_plot_is_still_drawn(self) -> None:
        xml.dom.minidom.parseString(line_plot("empty", "x", "y", {}))

    def test_tick_steps_are_round(self) -> None:
        self.assertEqual(nice_step(1800), 500)
        self.assertEqual(nice_step(10), 2)
        self.assertEqual(nice_step(0), 1)


if __name__ == "__main__":
    unittest.main()
