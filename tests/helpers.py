import html
import re


def text(response):
    """The page as a person reads it: HTML entities decoded, whitespace collapsed."""
    return re.sub(r"\s+", " ", html.unescape(response.content.decode()))


def without_tokens(page: str) -> str:
    """``page`` without its CSRF tokens (64 random letters and digits each): a test
    that a short text is absent must not trip on one of them spelling it."""
    return re.sub(r"[A-Za-z0-9]{64}", "", page)


def link_in(message, path_prefix):
    """The first link in an e-mail whose path starts with path_prefix."""
    match = re.search(r"https?://[^/\s]+(" + re.escape(path_prefix) + r"\S*)", message.body)
    assert match, f"no {path_prefix} link in: {message.body}"
    return match.group(1)


def at_once(*calls):
    """Each of ``calls`` in its own thread, let go together (a barrier); what each
    returned or raised, in order.  Each thread closes its database connections."""
    import threading

    from django.db import connections

    results, start = {}, threading.Barrier(len(calls))

    def run(n, call):
        start.wait()
        try:
            results[n] = call()
        except Exception as error:  # noqa: BLE001 - reported to the test
            results[n] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(n, call)) for n, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return [results.get(n) for n in range(len(calls))]
