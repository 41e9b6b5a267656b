"""The button and light panel: presses become moves of the session, lights follow its state.

``commands`` maps a button to a move through the core's public API, ``lights`` computes what the
lights show from a session, ``panel`` holds the ``Panel`` interface and its simulated and GPIO
back ends, ``link`` the serial back end (a microcontroller, ``protocol`` on the wire), and
``controller`` ties a session to any number of panels. Nothing here touches hardware at import.
"""
