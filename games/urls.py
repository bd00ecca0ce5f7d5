from django.urls import path

from . import (
    challenge_views,
    explore_views,
    game_views,
    notify_views,
    plan_views,
    player_views,
    views,
)

urlpatterns = [
    path("game/<int:game_id>/", game_views.game, name="game"),
    path("game/<int:game_id>/poll", game_views.poll, name="game_poll"),
    path("game/<int:game_id>/click", game_views.click, name="game_click"),
    path("game/<int:game_id>/move", game_views.move, name="game_move"),
    path("game/<int:game_id>/resign", game_views.resign, name="game_resign"),
    path("game/<int:game_id>/draw", game_views.draw, name="game_draw"),
    path("game/<int:game_id>/abort", game_views.abort, name="game_abort"),
    path("game/<int:game_id>/rematch", game_views.rematch, name="game_rematch"),
    path("game/<int:game_id>/note", game_views.note, name="game_note"),
    path("game/<int:game_id>/plan", plan_views.plan, name="game_plan"),
    path("game/<int:game_id>/chat", game_views.chat_messages, name="game_chat"),
    path("game/<int:game_id>/record.txt", game_views.record, name="game_record"),
    path("game/<int:game_id>/explore", explore_views.explore_board, name="game_explore"),
    path("", views.home, name="home"),
    path("games/", views.games_list, name="games_list"),
    path("rules/", views.rules_index, name="rules_index"),
    path("rules/<slug:game>/", views.rules_page, name="rules_page"),
    path("lobby/", challenge_views.lobby, name="lobby"),
    path("unsubscribe/<str:token>/", notify_views.unsubscribe, name="unsubscribe"),
    path("challenge/new/", challenge_views.challenge_new, name="challenge_new"),
    path("challenge/<slug:token>/", challenge_views.challenge_detail, name="challenge_detail"),
    path("challenge/<slug:token>/poll", challenge_views.challenge_poll, name="challenge_poll"),
    path(
        "challenge/<int:challenge_id>/accept/",
        challenge_views.challenge_accept,
        name="challenge_accept",
    ),
    path(
        "challenge/<int:challenge_id>/decline/",
        challenge_views.challenge_decline,
        name="challenge_decline",
    ),
    path(
        "challenge/<int:challenge_id>/cancel/",
        challenge_views.challenge_cancel,
        name="challenge_cancel",
    ),
    path("leaderboard/", player_views.leaderboard_index, name="leaderboard_index"),
    path("leaderboard/<slug:game>/", player_views.leaderboard_page, name="leaderboard"),
    path("players/", player_views.players, name="players"),
]
