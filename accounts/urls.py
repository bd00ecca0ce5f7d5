from django.urls import path

from . import token_views, views

urlpatterns = [
    path("@/<str:username>", views.profile, name="profile"),
    path("@/<str:username>/games.txt", views.profile_games_export, name="profile_games_export"),
    path("@/<str:username>/block", views.block_player, name="block_player"),
    path("@/<str:username>/unblock", views.unblock_player, name="unblock_player"),
    path("@/<str:username>/follow", views.follow_player, name="follow_player"),
    path("@/<str:username>/unfollow", views.unfollow_player, name="unfollow_player"),
    path("following/", views.following_page, name="following"),
    path("settings/", views.settings, name="settings"),
    path("settings/vacation/", views.vacation, name="vacation"),
    path("settings/data.json", views.account_data, name="account_data"),
    path("settings/close/", views.close_account, name="close_account"),
    path("settings/tokens/", token_views.api_tokens, name="api_tokens"),
    path(
        "settings/tokens/<int:token_id>/revoke",
        token_views.revoke_api_token,
        name="revoke_api_token",
    ),
]
