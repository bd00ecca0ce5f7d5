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
