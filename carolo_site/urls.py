from django.contrib import admin
from django.urls import include, path

from carolo_site import views
from games.api import api_urls

# The API and the health check first: every request tries the patterns in order,
# and these two are the most frequent (apps, bots, load balancers).
urlpatterns = [
    path("api/", api_urls()),
    path("health/", views.health, name="health"),
    path("", include("games.urls")),
    path("", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
