"""Adapters to other frameworks (optional extras): :mod:`loveformal.integrations.pettingzoo`."""
