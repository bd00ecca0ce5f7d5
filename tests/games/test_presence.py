from games import presence


def test_a_player_is_present_only_after_opening_the_game():
    assert not presence.is_present(1, 7)
    presence.touch(1, 7)
    assert presence.is_present(1, 7)
    assert not presence.is_present(1, 8) and not presence.is_present(2, 7)
