#!/bin/sh
# A worker that fails before CBC reports anything.
exit 3
