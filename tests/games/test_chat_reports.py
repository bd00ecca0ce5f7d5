"""Reporting a chat message to the staff: the Report button on the opponent's messages,
with and without htmx, the reason given after, what is refused (own message,
strangers, hidden messages, twice, the hourly limit), that the author is never told
and the game's row never written, and the staff's review in the admin."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.db.models import F
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import blocks, tokens
from accounts.models import User
from games import chat, presenters, services
from games.models import ChatMessage, ChatReport, Game
from tests.conftest import make_player
from tests.games.game_utils import client_for, start_game, words
from tests.games.game_utils import game_page as page
from tests.helpers import at_once

HTMX = {"HTTP_HX_REQUEST": "true"}
REPORT_FORM = '<form id="game-chat-report" method="post" hx-post hx-swap="none">'


@pytest.fixture
def game(alice, bob):
    return start_game("carolo", alice, bob)


@pytest.fixture
def rude(alice, bob, game):
    """bob's rude message to alice, after her greeting."""
    chat.post_message(alice, game.pk, "good luck")
    return chat.post_message(bob, game.pk, "you are an idiot")


def url(game_id, message_id) -> str:
    return f"/game/{game_id}/chat/{message_id}/report"


def report(client, game_id, message_id, follow=False, **data_and_headers):
    """POST the report form; keywords named HTTP_* are headers, the others its fields."""
    headers = {k: v for k, v in data_and_headers.items() if k.startswith("HTTP_")}
    data = {k: v for k, v in data_and_headers.items() if k not in headers}
    return client.post(url(game_id, message_id), data, follow=follow, **headers)


def panel(response) -> str:
    """The chat panel, without the CSRF tokens (masked afresh on each page)."""
    found = re.search(
        r'<section class="game-chat" id="game-chat".*?</section>', response.content.decode(), re.S
    )
    assert found
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", found.group(0))


def html_of(response) -> str:
    return response.content.decode()


def line(response, message) -> str:
    found = re.search(rf'<li [^>]*id="chat-{message.pk}".*?</li>', response.content.decode(), re.S)
    return found.group(0) if found else ""


def button(message, reason=None) -> str:
    named = f' name="reason" value="{reason}"' if reason else ""
    action = url(message.game_id, message.pk)
    return (
        f'<button type="submit" form="game-chat-report" formaction="{action}" class="link"{named}>'
    )


def flashed(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


# -- the button ---------------------------------------------------------------------------


def test_only_the_opponents_messages_have_a_report_button(alice, bob, game, rude):
    greeting = ChatMessage.objects.get(author=alice)
    response = page(client_for(alice), game)
    assert f"{button(rude)}Report</button>" in line(response, rude)
    assert "button" not in line(response, greeting)  # her own
    box = panel(response)
    assert box.count(REPORT_FORM) == 1  # one form for all the buttons, with the CSRF token
    assert re.search(
        REPORT_FORM + '<input type="hidden" name="csrfmiddlewaretoken"', html_of(response)
    )
    bobs = page(client_for(bob), game)
    assert f"{button(greeting)}Report</button>" in line(bobs, greeting)
    assert "button" not in line(bobs, rude)


def test_a_page_without_a_chat_has_no_report_form(alice, charlie, game, rude):
    response = page(client_for(charlie), game)
    assert "game-chat-report" not in response.content.decode()
    assert "game-chat-report" not in page(Client(), game).content.decode()


# -- reporting ----------------------------------------------------------------------------


def test_it_reports_without_javascript_and_goes_back_to_the_page(alice, bob, game, rude):
    client = client_for(alice)
    before = timezone.now()
    response = report(client, game.pk, rude.pk)
    assert response.status_code == 302 and response["Location"] == f"/game/{game.pk}/#game-chat"
    made = ChatReport.objects.get()
    assert (made.message, made.reporter, made.reason) == (rude, alice, "")
    assert (made.status, made.handled_by, made.handled_at) == ("open", None, None)
    assert before <= made.created_at <= timezone.now()
    shown = line(page(client, game), rude)
    assert "Report</button>" not in shown
    assert words_of(shown) == "bob you are an idiot Reported · Why? Abuse Spam Cheating talk Other"
    # from a replay step: back to it
    services.play_move(alice, game.pk, "d2-f6", 0)
    assert '<input type="hidden" name="ply" value="0"></form>' in panel(page(client, game, ply=0))
    response = report(client, game.pk, rude.pk, reason="abuse", ply="0")
    assert response["Location"] == f"/game/{game.pk}/?ply=0#game-chat"


def words_of(html: str) -> str:
    """The text of ``html`` without its time: what a reader of the line sees."""
    html = re.sub(r"<time[^>]*>[^<]*</time>", "", html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def test_it_reports_in_place_with_htmx(alice, game, rude):
    response = report(client_for(alice), game.pk, rude.pk, **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    # the message's line only, to put in place of the one on the page
    assert body.startswith(f'<li class="chat-line" id="chat-{rude.pk}" hx-swap-oob="true">')
    assert body.count("<li") == 1 and "good luck" not in body
    assert words_of(body) == "bob you are an idiot Reported · Why? Abuse Spam Cheating talk Other"
    # a button for each reason the staff know, no other
    reasons = [(value, str(label)) for value, label in ChatReport.Reason.choices]
    assert [r for r in reasons if f"{button(rude, r[0])}{r[1]}</button>" in body] == reasons
    assert body.count('name="reason"') == 4
    assert ChatReport.objects.get().reporter == alice


def test_the_reason_is_added_to_the_report_once(alice, game, rude):
    client = client_for(alice)
    report(client, game.pk, rude.pk)
    response = report(client, game.pk, rude.pk, reason="cheating", **HTMX)
    assert words_of(response.content.decode()) == "bob you are an idiot Reported"
    made = ChatReport.objects.get()
    assert made.reason == "cheating" and made.status == "open"
    assert words_of(line(page(client, game), rude)) == "bob you are an idiot Reported"
    # a report with its reason is done: another one changes nothing
    response = report(client, game.pk, rude.pk, reason="spam", follow=True)
    assert flashed(response) == ["You have already reported this message."]
    assert ChatReport.objects.get().reason == "cheating"


def test_a_reason_given_with_the_report_is_kept(alice, game, rude):
    report(client_for(alice), game.pk, rude.pk, reason="spam")
    assert ChatReport.objects.get().reason == "spam"


def test_reporting_twice_says_so_and_stores_nothing_new(alice, game, rude):
    client = client_for(alice)
    report(client, game.pk, rude.pk)
    first = ChatReport.objects.values().get()
    response = report(client, game.pk, rude.pk, follow=True)
    assert flashed(response) == ["You have already reported this message."]
    assert response.redirect_chain == [(f"/game/{game.pk}/#game-chat", 302)]
    response = report(client, game.pk, rude.pk, **HTMX)
    assert response.status_code == 200
    assert words_of(response.content.decode()) == (
        "bob you are an idiot Reported · Why? Abuse Spam Cheating talk Other"
        " · You have already reported this message."
    )
    assert "game-chat-error" not in response.content.decode()  # news, not an error
    assert list(ChatReport.objects.values()) == [first]


def test_the_author_is_never_told(alice, bob, game, rude):
    bob_client = client_for(bob)
    before = panel(page(bob_client, game))
    last = ChatMessage.objects.last().pk
    report(client_for(alice), game.pk, rude.pk)
    report(client_for(alice), game.pk, rude.pk, reason="abuse")
    assert panel(page(bob_client, game)) == before
    assert "Report" not in line(page(bob_client, game), rude)
    # nor does his panel's poll bring anything
    poll = bob_client.get(reverse("game_chat", args=[game.pk]), {"after": last}, **HTMX)
    assert poll.status_code == 204
    assert chat.news(bob, game.pk, last) is False


# -- refused ------------------------------------------------------------------------------


def test_nobody_reports_their_own_message(alice, bob, game, rude):
    for headers in ({}, HTMX):
        response = report(client_for(bob), game.pk, rude.pk, **headers)
        assert response.status_code == 403
        assert response.content.decode() == "You cannot report your own message."
    assert not ChatReport.objects.exists()


def test_a_stranger_and_a_missing_game_or_message_get_404(alice, bob, charlie, game, rude):
    other = start_game("rococo", alice, bob)
    elsewhere = chat.post_message(bob, other.pk, "in the other game")
    for headers in ({}, HTMX):
        response = report(client_for(charlie), game.pk, rude.pk, **headers)
        assert response.status_code == 404 and response.content.decode() == "No such message."
        assert report(client_for(alice), 999_999, rude.pk, **headers).status_code == 404
        assert report(client_for(alice), game.pk, 999_999, **headers).status_code == 404
        # a message of another game, through this one's address
        assert report(client_for(alice), game.pk, elsewhere.pk, **headers).status_code == 404
    with pytest.raises(services.NotFound):
        chat.report_message(alice, game.pk, "nonsense")
    assert not ChatReport.objects.exists()


def test_a_game_against_a_bot_has_nothing_to_report(alice):
    bot = User.objects.get(username="carolo-bot")
    challenge = services.create_challenge(
        alice, variant="carolo", opponent=bot, color="white", bot_level=1
    )
    message = ChatMessage.objects.create(
        game_id=challenge.game_id, author=bot, text="forged", created_at=timezone.now()
    )
    assert report(client_for(alice), challenge.game_id, message.pk).status_code == 404
    assert not ChatReport.objects.exists()


def test_an_anonymous_visitor_a_get_and_a_form_without_csrf_report_nothing(alice, game, rude):
    response = report(Client(), game.pk, rude.pk)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client_for(alice).get(url(game.pk, rude.pk)).status_code == 405
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert report(client, game.pk, rude.pk).status_code == 403
    assert not ChatReport.objects.exists()


def test_a_reason_not_on_the_list_is_refused(alice, game, rude):
    client = client_for(alice)
    response = report(client, game.pk, rude.pk, reason="boring", **HTMX)
    assert response.status_code == 200
    shown = response.content.decode()
    assert '<strong class="game-chat-error">Choose a reason from the list.</strong>' in shown
    assert f"{button(rude)}Report</button>" in shown  # not reported: the button stays
    response = report(client, game.pk, rude.pk, reason="boring", follow=True)
    assert flashed(response) == ["Choose a reason from the list."]
    assert not ChatReport.objects.exists()


def test_a_message_hidden_from_the_player_cannot_be_reported(alice, bob, game, rude):
    blocks.block(alice, bob)  # hides bob's messages from alice
    assert report(client_for(alice), game.pk, rude.pk).status_code == 404
    blocks.unblock(alice, bob)
    alice.chat_enabled = False
    alice.save(update_fields=["chat_enabled"])
    assert report(client_for(alice), game.pk, rude.pk).status_code == 404
    assert not ChatReport.objects.exists()


def test_the_blocked_player_may_still_report_what_they_see(alice, bob, game, rude):
    greeting = ChatMessage.objects.get(author=alice)
    blocks.block(alice, bob)  # bob's panel is closed but shows alice's messages
    box = panel(page(client_for(bob), game))
    assert "alice has blocked you: the chat is closed." in box
    assert REPORT_FORM in box and f"{button(greeting)}Report</button>" in box
    assert report(client_for(bob), game.pk, greeting.pk).status_code == 302
    assert ChatReport.objects.get().reporter == bob


def test_it_refuses_the_eleventh_report_in_an_hour(alice, bob, game):
    other = start_game("rococo", alice, bob)
    now = timezone.now()
    rude = [
        ChatMessage.objects.create(game=g, author=bob, text=f"rude {n}", created_at=now)
        for n, g in enumerate([game] * 6 + [other] * 6)
    ]
    for message in rude[:10]:  # the limit counts every game
        chat.report_message(alice, message.game_id, message.pk)
    client = client_for(alice)
    response = report(client, other.pk, rude[10].pk, **HTMX)
    assert "You have made 10 reports in the last hour: wait a little." in words(response)
    assert f"{button(rude[10])}Report</button>" in response.content.decode()
    response = report(client, other.pk, rude[10].pk, follow=True)
    assert flashed(response) == ["You have made 10 reports in the last hour: wait a little."]
    with pytest.raises(services.TooMany):
        chat.report_message(alice, other.pk, rude[10].pk)
    assert ChatReport.objects.count() == 10
    # giving the reason of a report made is no new report
    chat.report_message(alice, game.pk, rude[0].pk, "spam")
    # the limit is the player's: bob may report alice
    greeting = chat.post_message(alice, game.pk, "calm down")
    chat.report_message(bob, game.pk, greeting.pk)
    # an hour later she may report again
    ChatReport.objects.filter(reporter=alice).update(
        created_at=F("created_at") - timedelta(hours=1)
    )
    assert report(client, other.pk, rude[10].pk).status_code == 302
    assert ChatReport.objects.filter(reporter=alice).count() == 11


def test_a_report_is_no_part_of_the_game(alice, bob, game, rude):
    services.play_move(alice, game.pk, "d2-f6", 0)
    game.refresh_from_db()
    auth = {"Authorization": f"Bearer {tokens.create_token(bob)[1]}"}
    state = Client().get(f"/api/games/{game.pk}", headers=auth)
    before = Game.objects.filter(pk=game.pk).values().get()
    tokens_before = {side: presenters.poll_token(game, side) for side in ("white", "black", None)}

    report(client_for(alice), game.pk, rude.pk, **HTMX)
    report(client_for(alice), game.pk, rude.pk, reason="abuse")

    game.refresh_from_db()
    assert Game.objects.filter(pk=game.pk).values().get() == before
    assert {side: presenters.poll_token(game, side) for side in tokens_before} == tokens_before
    again = Client().get(f"/api/games/{game.pk}", headers={**auth, "If-None-Match": state["ETag"]})
    assert again.status_code == 304


def test_reports_made_at_once_keep_to_the_limit_and_to_one_a_message(postgres):
    alice, bob = make_player("alice"), make_player("bob")
    game = start_game("carolo", alice, bob)
    now = timezone.now()
    rude = [
        ChatMessage.objects.create(game=game, author=bob, text=f"rude {n}", created_at=now)
        for n in range(14)
    ]
    calls = [lambda m=m: chat.report_message(alice, game.pk, m.pk) for m in rude]
    calls += [lambda: chat.report_message(alice, game.pk, rude[0].pk)] * 2
    results = at_once(*calls)
    made = [r for r in results if isinstance(r, ChatReport)]
    refused = [r for r in results if isinstance(r, services.GameError)]
    assert (len(made), len(refused)) == (chat.REPORTS_PER_HOUR, 16 - 10), results
    assert ChatReport.objects.count() == chat.REPORTS_PER_HOUR
    assert ChatReport.objects.filter(message=rude[0]).count() <= 1


# -- the staff's review -------------------------------------------------------------------


@pytest.fixture
def staff(db):
    user = make_player("staff")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    codenames = ["view_chatreport", "change_chatreport", "change_user"]
    user.user_permissions.set(Permission.objects.filter(codename__in=codenames))
    return User.objects.get(pk=user.pk)  # the permissions cache afresh


CHANGELIST = "/admin/games/chatreport/"


def test_the_admin_lists_open_reports_first(alice, bob, charlie, staff, game, rude):
    greeting = ChatMessage.objects.get(author=alice)
    old = chat.report_message(alice, game.pk, rude.pk, "abuse")
    newer = chat.report_message(bob, game.pk, greeting.pk)
    ChatReport.objects.filter(pk=newer.pk).update(status="dismissed")
    other = start_game("rococo", alice, charlie)
    third = chat.report_message(alice, other.pk, chat.post_message(charlie, other.pk, "spam!").pk)
    response = client_for(staff).get(CHANGELIST)
    assert response.status_code == 200
    html = response.content.decode()
    rows = re.findall(r'name="_selected_action" value="(\d+)"', html)
    assert rows == [str(third.pk), str(old.pk), str(newer.pk)]  # open (newest first), then done
    row = re.search(rf'value="{old.pk}".*?</tr>', html, re.S).group(0)
    assert (
        '<td class="field-status">open</td><td class="field-reason">Abuse</td>'
        '<td class="field-text">you are an idiot</td><td class="field-author">bob</td>'
        '<td class="field-reporter nowrap">alice</td>'
        f'<td class="field-game"><a href="/game/{game.pk}/">{game.pk}</a></td>'
    ) in row


def test_the_report_page_shows_the_messages_around_it(alice, bob, staff, game):
    now = timezone.now()
    said = [
        ChatMessage.objects.create(
            game=game, author=(alice, bob)[n % 2], text=f"line {n}", created_at=now
        )
        for n in range(13)
    ]
    made = chat.report_message(alice, game.pk, said[7].pk)  # bob's
    response = client_for(staff).get(f"{CHANGELIST}{made.pk}/change/")
    assert response.status_code == 200
    html = response.content.decode()
    shown = re.findall(r"<li>(?:<mark>)?<b>(\w+)</b> [\d: -]+: (line \d+)", html)
    assert shown == [((alice, bob)[n % 2].username, f"line {n}") for n in range(2, 13)]
    assert "<li><mark><b>bob</b>" in html and html.count("<mark>") == 1
    assert re.search(r"<mark><b>bob</b> [\d: -]+: line 7</mark>", html)
    assert "line 1<" not in html
    assert 'name="status"' not in html  # read-only: a report changes by the actions


def post_action(client, action, *reports):
    data = {"action": action, "_selected_action": [r.pk for r in reports]}
    return client.post(CHANGELIST, data)


def test_the_staff_dismiss_or_mark_acted(alice, bob, staff, game, rude):
    greeting = ChatMessage.objects.get(author=alice)
    first = chat.report_message(alice, game.pk, rude.pk)
    second = chat.report_message(bob, game.pk, greeting.pk)
    client = client_for(staff)
    before = timezone.now()
    assert post_action(client, "dismiss", first).status_code == 302
    first.refresh_from_db()
    assert (first.status, first.handled_by) == ("dismissed", staff)
    assert before <= first.handled_at <= timezone.now()
    post_action(client, "mark_acted", second)
    second.refresh_from_db()
    assert (second.status, second.handled_by) == ("acted", staff)
    assert User.objects.filter(is_active=True).count() == User.objects.count()  # nobody closed


def test_the_staff_close_the_authors_account(alice, bob, charlie, staff, game, rude):
    other = start_game("rococo", alice, charlie)
    kept = chat.report_message(alice, other.pk, chat.post_message(charlie, other.pk, "hm").pk)
    made = chat.report_message(alice, game.pk, rude.pk)
    post_action(client_for(staff), "close_author_account", made)
    made.refresh_from_db()
    assert (made.status, made.handled_by) == ("acted", staff)
    assert User.objects.get(pk=bob.pk).is_active is False
    assert User.objects.get(pk=alice.pk).is_active is True  # the reporter
    assert User.objects.get(pk=charlie.pk).is_active is True  # not selected
    # closed as a player closes their own account: bob's game ended, alice's other not
    assert not Game.objects.get(pk=game.pk).is_active
    assert Game.objects.get(pk=other.pk).is_active
    kept.refresh_from_db()
    assert kept.status == "open"
    # bob is signed out: his session no longer counts
    assert client_for(bob).get(reverse("game_chat", args=[game.pk])).status_code == 302


def test_closing_accounts_needs_the_right_to_change_users(alice, staff, game, rude):
    staff.user_permissions.remove(Permission.objects.get(codename="change_user"))
    client = client_for(User.objects.get(pk=staff.pk))
    made = chat.report_message(alice, game.pk, rude.pk)
    html = client.get(CHANGELIST).content.decode()
    assert 'value="dismiss"' in html and 'value="close_author_account"' not in html
    post_action(client, "close_author_account", made)
    assert User.objects.get(username="bob").is_active is True
    made.refresh_from_db()
    assert made.status == "open"


def test_players_have_no_access_to_the_review(alice, game, rude):
    chat.report_message(alice, game.pk, rude.pk)
    response = client_for(alice).get(CHANGELIST)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert client_for(alice).get("/admin/games/chatreport/add/").status_code == 302
