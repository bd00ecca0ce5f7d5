"""The favicon: a small SVG inline in every page, so no request for /favicon.ico."""

import re
import xml.etree.ElementTree as ET
from urllib.parse import unquote

PREFIX = "data:image/svg+xml,"


def icon_href(client) -> str:
    page = client.get("/").content.decode()
    match = re.search(r'<link rel="icon" href="([^"]*)">', page)
    assert match, "no icon link"
    return match.group(1)


def test_the_icon_is_a_small_inline_svg(client, db):
    href = icon_href(client)
    assert href.startswith(PREFIX)
    assert len(href.encode()) < 400  # every page carries it
    # a valid URL in a quoted attribute: nothing a browser or validator reads
    # otherwise (# would start a fragment in Firefox)
    assert not re.search(r"[\s<>#\"&]", href)


def test_the_icon_is_a_4_by_4_board_in_the_site_greens(client, db):
    svg = ET.fromstring(unquote(icon_href(client).removeprefix(PREFIX)))
    assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    assert svg.get("viewBox") == "0,0,4,4"
    light, dark = svg
    assert light.get("fill") == "#e3efe9"  # --accent-soft
    assert dark.get("stroke") == "#2f6f5e"  # --accent
