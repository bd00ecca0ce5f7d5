"""Vacation days are counted in the calendar year (UTC) they fall in: at most 30 a year.

A vacation over New Year is charged in part to each year, each part rounded up
to whole days (a day begun counts, as when a vacation is ended early).
"""

from datetime import UTC, datetime, timedelta

import pytest

from games import clock

DAY = timedelta(days=1)
DEC_20 = datetime(2026, 12, 20, 12, 0, tzinfo=UTC)
DEC_28 = datetime(2026, 12, 28, 12, 0, tzinfo=UTC)


def at(month, day, hour=12, year=2027):
    return datetime(year, month, day, hour, 0, tzinfo=UTC)


def test_days_are_charged_to_the_year_they_fall_in():
    assert clock._days_by_year(DEC_20, DEC_20 + 30 * DAY) == {2026: 12, 2027: 19}  # 11.5, 18.5
    assert clock._days_by_year(DEC_20, DEC_20 + 7 * DAY) == {2026: 7}
    midnight = datetime(2027, 1, 1, tzinfo=UTC)
    assert clock._days_by_year(midnight - DAY, midnight + DAY) == {2026: 1, 2027: 1}


def test_a_vacation_over_new_year_leaves_the_next_year_its_own_days_only(alice):
    clock.start_vacation(alice, 30, now=DEC_20)  # to 19 January 2027, noon
    alice.refresh_from_db()
    assert (alice.vacation_year, alice.vacation_days_used) == (2026, 12)
    assert clock.vacation_days_left(alice, DEC_20) == 18
    assert clock.vacation_days_left(alice, at(1, 5)) == 11  # 19 days of it are in 2027
    assert clock.end_due_vacations(now=at(1, 19, 13)) == 1
    alice.refresh_from_db()
    assert (alice.vacation_year, alice.vacation_days_used) == (2027, 19)
    assert clock.vacation_days_left(alice, at(1, 20)) == 11
    with pytest.raises(clock.VacationError, match="You have 11 days of vacation left this year"):
        clock.start_vacation(alice, 30, now=at(1, 20))  # 49 days in 2027
    with pytest.raises(clock.VacationError, match="11 days of vacation left"):
        clock.start_vacation(alice, 12, now=at(1, 20))
    clock.start_vacation(alice, 11, now=at(1, 20))  # 30 days in 2027, no more
    alice.refresh_from_db()
    assert clock.vacation_days_left(alice, at(1, 21)) == 0
    assert clock.vacation_days_left(alice, at(1, 1, year=2028)) == 30


def test_days_after_new_year_are_not_charged_to_the_old_one(alice):
    alice.vacation_year, alice.vacation_days_used = 2026, 25
    alice.save()
    with pytest.raises(clock.VacationError, match="5 days of vacation left"):
        clock.start_vacation(alice, 6, now=DEC_20)  # 6 days in 2026
    clock.start_vacation(alice, 30, now=DEC_28)  # 3.5 days in 2026: 4; 26.5 in 2027: 27
    alice.refresh_from_db()
    assert (alice.vacation_year, alice.vacation_days_used) == (2026, 29)
    assert clock.vacation_days_left(alice, DEC_28) == 1
    assert clock.vacation_days_left(alice, at(1, 10)) == 3


def test_a_vacation_ended_early_in_the_new_year_charges_the_days_taken(alice):
    clock.start_vacation(alice, 30, now=DEC_20)
    clock.end_vacation(alice, now=at(1, 3, 6))  # 2.25 days of 2027 taken: 3
    alice.refresh_from_db()
    assert (alice.vacation_year, alice.vacation_days_used) == (2027, 3)
    assert not alice.on_vacation
    assert clock.vacation_days_left(alice, at(1, 4)) == 27


def test_a_vacation_ended_early_within_its_year_gives_the_unused_days_back(alice):
    alice.vacation_year, alice.vacation_days_used = 2026, 10
    alice.save()
    clock.start_vacation(alice, 20, now=DEC_20)  # 12 days in 2026 (to 31 Dec), 8 in 2027
    alice.refresh_from_db()
    assert alice.vacation_days_used == 22
    clock.end_vacation(alice, now=DEC_20 + 2 * DAY + timedelta(hours=1))  # 3 days begun
    alice.refresh_from_db()
    assert (alice.vacation_year, alice.vacation_days_used) == (2026, 13)
    assert clock.vacation_days_left(alice, at(1, 1)) == 30
