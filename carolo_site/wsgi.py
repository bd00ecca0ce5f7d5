import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

from carolo_site.runtime import tune_garbage_collection

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "carolo_site.settings")

application = get_wsgi_application()
get_resolver().check()  # imports every view and the API now, to be frozen with the rest
tune_garbage_collection()
