from django.http import HttpResponse


def health(request):
    """For load balancers and the benchmarks' ceiling: no database, no template."""
    return HttpResponse("ok", content_type="text/plain")
