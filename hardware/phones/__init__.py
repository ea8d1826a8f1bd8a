"""Phones as private screens: each seat's page on the table's own small web server.

`server` is the web server (aiohttp, in a thread of its own beside Kivy's
loop); `static/` holds the one page every phone gets, which draws whatever
page structure the app hands it. Nothing here knows a game: what a seat's
page shows comes from the `render` function the app gives the server.
"""
