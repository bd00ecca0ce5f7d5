"""The load benchmark's CPU accounting (bench/cpu.py)."""

import os

from bench import cpu


def test_per_request_counts_each_process_from_its_own_start():
    before = {
        "web": {10: 1.0, 11: 2.0},
        "postgresql": {20: 5.0, 21: 3.0},  # 21 ends during the stage
        "generator": {0: 0.5},
        "machine": {0: 100.0},
    }
    after = {
        "web": {10: 1.3, 11: 2.2},  # 0.5 s
        "postgresql": {20: 5.1, 22: 0.1},  # 22 is a new backend: 0.2 s
        "generator": {0: 0.8},  # 0.3 s
        "machine": {0: 101.2},  # 1.2 s in all: 0.2 s spent elsewhere
    }
    assert cpu.per_request(before, after, 100) == {
        "web": 5.0,
        "postgresql": 2.0,
        "generator": 3.0,
        "other": 2.0,
        "in_all": 12.0,
    }


def test_no_requests_no_figures():
    snapshot = {"web": {1: 1.0}, "machine": {0: 1.0}}
    assert cpu.per_request(snapshot, snapshot, 0) == {}


def test_a_snapshot_finds_the_named_process_and_the_machine():
    snapshot = cpu.snapshot({"tests": os.getpid()})
    assert os.getpid() in snapshot["tests"]
    assert snapshot["tests"][os.getpid()] > 0
    assert snapshot["machine"][0] >= snapshot["tests"][os.getpid()]
