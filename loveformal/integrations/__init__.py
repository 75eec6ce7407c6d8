"""Adapters to other frameworks (optional extras): :mod:`loveformal.integrations.pettingzoo`
(an AEC environment, extra ``[pettingzoo]``) and :mod:`loveformal.integrations.openspiel`
(any position as an OpenSpiel game, extra ``[openspiel]``)."""
