#!/bin/sh
# A worker that dies of a signal before CBC reports anything (as Debian's
# CBC does on a failed assertion).
kill -ABRT $$
