from django.contrib import admin
from django.urls import include, path

from carolo_site import views
from games.api import api_urls

urlpatterns = [
    path("", include("games.urls")),
    path("", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("health/", views.health, name="health"),
    path("api/", api_urls()),
]
