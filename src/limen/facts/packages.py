"""Packages every project installs, per registry: a name a letter or two away from one of them (`reqeusts`,
`crossenv`, `lodahs`) is the classic typosquat, published to catch the slip of a finger or of a model.

Names are compared as the registry compares them (PyPI: case, `_` and `.` folded to `-`). A listed name is
never a look-alike of another listed name (`uvicorn` and `gunicorn`, `react` and `preact`, `scipy` and
`scapy` are all here), so a project's ordinary dependencies stay quiet.
"""

from __future__ import annotations

import re

PYPI = frozenset(
    {
        *("accelerate", "aiobotocore", "aiohttp", "aiosignal", "aiosqlite", "airflow", "alembic"),
        *("ansible", "anthropic", "anyio", "apache-airflow", "apscheduler", "ariadne", "arrow", "asyncpg"),
        *("attr", "attrs", "awscli", "azure-core", "bcrypt", "beautifulsoup4", "black", "bokeh", "boto"),
        *("boto3", "botocore", "bs4", "build", "cachetools", "catboost", "celery", "certifi", "cffi"),
        *("chardet", "charset-normalizer", "click", "cloudpickle", "colorama", "coverage", "cryptography"),
        *("dash", "dask", "datasets", "decorator", "deprecated", "dill", "discord", "distlib", "django"),
        *("djangorestframework", "docker", "docutils", "emoji", "eventlet", "fabric", "faker", "fastapi"),
        *("filelock", "flake8", "flask", "flit", "frozenlist", "gensim", "gevent", "gitpython"),
        *("google-api-core", "google-api-python-client", "google-auth", "google-cloud-storage", "gradio"),
        *("graphene", "greenlet", "grpcio", "grpcio-tools", "gunicorn", "h11", "hatchling", "html5lib"),
        *("httpcore", "httpx", "huggingface-hub", "hypothesis", "idna", "imageio", "invoke", "ipykernel"),
        *("ipython", "isort", "itsdangerous", "jax", "jaxlib", "jinja", "jinja2", "joblib", "jsonschema"),
        *("jupyter", "jupyterlab", "jwt", "keras", "kombu", "kubernetes", "langchain", "langchain-core"),
        *("langgraph", "lightgbm", "llama-index", "loguru", "lxml", "markdown", "markupsafe"),
        *("marshmallow", "matplotlib", "mistune", "mkdocs", "mkdocs-material", "mlflow", "mock"),
        *("more-itertools", "motor", "msgpack", "multidict", "mypy", "mysqlclient", "nbconvert"),
        *("nbformat", "networkx", "nltk", "notebook", "nox", "numba", "numpy", "oauthlib", "onnx"),
        *("onnxruntime", "openai", "opencv-python", "openpyxl", "opentelemetry-api", "optuna", "orjson"),
        *("packaging", "pandas", "paramiko", "pdm", "peewee", "pendulum", "pexpect", "pillow", "pip"),
        *("pipenv", "platformdirs", "playwright", "plotly", "poetry", "polars", "pre-commit", "prefect"),
        *("prettytable", "prometheus-client", "protobuf", "psutil", "psycopg", "psycopg2"),
        *("psycopg2-binary", "pyarrow", "pyasn1", "pycparser", "pydantic", "pydantic-core", "pygments"),
        *("pyjwt", "pylint", "pymongo", "pymysql", "pynacl", "pyopenssl", "pypdf", "pyrogram", "pytest"),
        *("pytest-asyncio", "pytest-cov", "pytest-mock", "pytest-xdist", "python-dateutil", "python-docx"),
        *("python-dotenv", "pytz", "pyyaml", "pyzmq", "ray", "redis", "referencing", "regex", "reportlab"),
        *("requests", "requests-oauthlib", "rich", "rpds-py", "rsa", "ruff", "s3transfer", "safetensors"),
        *("scapy", "schedule", "scikit-image", "scikit-learn", "scipy", "scrapy", "seaborn", "selenium"),
        *("sentencepiece", "sentry-sdk", "setuptools", "sh", "shap", "simplejson", "six", "sklearn"),
        *("slack-sdk", "sniffio", "sortedcontainers", "soupsieve", "spacy", "sphinx", "sqlalchemy"),
        *("sqlmodel", "starlette", "statsmodels", "strawberry-graphql", "streamlit", "stripe", "structlog"),
        *("sympy", "tabulate", "telethon", "tensorboard", "tensorflow", "termcolor", "textblob"),
        *("tiktoken", "tokenizers", "toml", "tomli", "tomlkit", "torch", "torchaudio", "torchvision"),
        *("tornado", "tortoise-orm", "tox", "tqdm", "traitlets", "transformers", "trio", "tweepy"),
        *("twilio", "twine", "typer", "tzdata", "ujson", "urllib3", "uv", "uvicorn", "uvloop"),
        *("virtualenv", "wandb", "watchdog", "websocket-client", "websockets", "werkzeug", "wheel"),
        *("wrapt", "xgboost", "xlrd", "xlsxwriter", "yarl", "zope-interface"),
    }
)

NPM = frozenset(
    {
        *("@angular/core", "@anthropic-ai/sdk", "@apollo/client", "@aws-sdk/client-s3", "@babel/core"),
        *("@babel/preset-env", "@emotion/react", "@nestjs/core", "@playwright/test", "@prisma/client"),
        *("@tanstack/react-query", "@types/node", "@types/react", "@vue/cli", "ajv", "angular"),
        *("apollo-server", "async", "autoprefixer", "aws-sdk", "axios", "babel", "babel-jest", "bcrypt"),
        *("bcryptjs", "bindings", "bluebird", "body-parser", "boxen", "bunyan", "canvas", "chai", "chalk"),
        *("chart.js", "cheerio", "chokidar", "class-validator", "classnames", "clsx", "colors"),
        *("commander", "concurrently", "cookie-parser", "core-js", "cors", "create-next-app"),
        *("create-react-app", "create-vite", "create-vue", "cross-env", "cross-fetch", "cross-spawn"),
        *("cypress", "d3", "date-fns", "dayjs", "debug", "discord.js", "dotenv", "electron", "enquirer"),
        *("esbuild", "eslint", "esm", "eventemitter3", "execa", "express", "fastify", "figlet", "firebase"),
        *("firebase-admin", "form-data", "formik", "fs-extra", "glob", "got", "graphql", "hapi", "helmet"),
        *("highlight.js", "http-server", "husky", "immer", "ini", "inquirer", "ioredis"),
        *("isomorphic-fetch", "jest", "jimp", "joi", "jquery", "js-yaml", "jsdom", "json-server"),
        *("jsonwebtoken", "kleur", "knex", "koa", "langchain", "lerna", "less", "lint-staged", "lit"),
        *("live-server", "lodash", "lodash-es", "log4js", "luxon", "markdown-it", "marked", "mime"),
        *("mime-types", "minimatch", "minimist", "mkdirp", "mobx", "mocha", "moment", "mongodb"),
        *("mongoose", "morgan", "multer", "mysql", "mysql2", "nan", "nanoid", "nestjs", "next"),
        *("node-fetch", "node-gyp", "node-pre-gyp", "node-telegram-bot-api", "nodemailer", "nodemon"),
        *("npm-run-all", "nuxt", "nx", "openai", "ora", "p-limit", "p-queue", "parcel", "passport"),
        *("pdfkit", "pg", "picocolors", "pinia", "pino", "playwright", "pm2", "postcss", "preact"),
        *("prebuild-install", "prettier", "prisma", "prompts", "puppeteer", "qs", "querystring", "ramda"),
        *("react", "react-dom", "react-hook-form", "react-redux", "react-router", "react-router-dom"),
        *("redis", "redux", "regenerator-runtime", "request", "rimraf", "rollup", "rxjs", "sass", "semver"),
        *("sequelize", "serve", "sharp", "shelljs", "sinon", "socket.io", "socket.io-client", "solid-js"),
        *("stripe", "styled-components", "superagent", "supertest", "svelte", "swr", "tailwindcss"),
        *("telegraf", "three", "ts-jest", "ts-loader", "ts-node", "tslib", "tsup", "tsx", "turbo"),
        *("twilio", "typeorm", "typescript", "underscore", "uuid", "validator", "vite", "vitest", "vue"),
        *("vue-cli", "vue-router", "vuex", "webpack", "webpack-cli", "webpack-dev-server", "winston", "ws"),
        *("xml2js", "yaml", "yargs", "yup", "zod", "zustand", "zx"),
    }
)

POPULAR = {"pypi": PYPI, "npm": NPM}

# A requirement's name: before extras, a version, a marker or a direct reference (`name[x]>=1; python...`)
_PYPI_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def package_name(registry: str, spec: str) -> str:
    """The name a registry knows a requirement by (`Requests[socks]==2.*` -> `requests`, `lodash@4` ->
    `lodash`, `@types/node@20` -> `@types/node`); "" for a path, a URL or anything else."""
    spec = spec.strip()
    if not spec or "://" in spec or spec.startswith((".", "/", "~", "-", "git+", "file:")):
        return ""
    if registry == "npm":
        name = spec if "@" not in spec[1:] else spec[: spec.index("@", 1)]
        return name.lower() if re.fullmatch(r"(?:@[\w.-]+/)?[\w.-]+", name) else ""
    match = _PYPI_NAME.match(spec)
    return re.sub(r"[._]+", "-", match.group(0)).lower() if match else ""
