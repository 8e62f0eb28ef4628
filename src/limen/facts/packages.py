"""Packages every project installs, per registry: a name a letter or two away from one of them (`reqeusts`,
`crossenv`, `lodahs`) is the classic typosquat, published to catch the slip of a finger or of a model.

Names are compared as the registry compares them (PyPI: case, `_` and `.` folded to `-`). A listed name is
never a look-alike of another listed name (`uvicorn` and `gunicorn`, `react` and `preact`, `scipy` and
`scapy` are all here), so a project's ordinary dependencies stay quiet.
"""

from __future__ import annotations

import mmap
import re
from functools import lru_cache

from limen.facts.hosts import imitated_owner, imitates, within_edits

PYPI = frozenset(
    {
        # the clouds' SDKs (Azure's, Google Cloud's) and the libraries that sign users in
        *("azure-identity", "azure-keyvault-secrets", "azure-keyvault-keys", "azure-mgmt-resource"),
        *("azure-cosmos", "azure-servicebus", "azure-eventhub", "msal", "google-cloud-secret-manager"),
        *("google-cloud-pubsub", "google-api-python-client", "google-cloud-aiplatform", "passlib"),
        *("python-jose", "authlib"),
        # data platforms: warehouses' connectors, dbt's adapters, Airflow's providers, Spark and friends
        *(
            "snowflake-connector-python",
            "snowflake-snowpark-python",
            "dbt-core",
            "dbt-snowflake",
            "dbt-postgres",
        ),
        *(
            "dbt-bigquery",
            "dbt-databricks",
            "apache-airflow-providers-amazon",
            "apache-airflow-providers-google",
        ),
        *("apache-airflow-providers-snowflake", "apache-airflow-providers-databricks", "databricks-sdk"),
        *("databricks-cli", "pyspark", "delta-spark", "great-expectations", "dagster", "duckdb"),
        *("pydantic-settings", "google-cloud-storage", "google-cloud-bigquery", "azure-storage-blob"),
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
        *(
            "httpcore",
            "httpx",
            "huggingface-hub",
            "hypothesis",
            "idna",
            "imageio",
            "invoke",
            "ipykernel",
            "jellyfish",
        ),
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
        # the training, serving and tracking stack of machine-learning projects
        *("pytorch-lightning", "lightning", "bitsandbytes", "hf-transfer", "peft", "trl", "vllm"),
        *("xformers", "flash-attn", "deepspeed", "diffusers", "timm", "einops", "evaluate", "triton"),
        *("sentence-transformers", "torchmetrics", "dvc", "dvc-s3", "papermill", "ipywidgets", "sagemaker"),
        *(
            "jupyter-server",
            "faiss-cpu",
            "chromadb",
            "langchain-openai",
            "langchain-community",
            "onnxruntime-gpu",
        ),
        *(
            "llama-cpp-python",
            "openai-whisper",
            "tensorflow-datasets",
            "torchserve",
            "mlflow-skinny",
            "optimum",
        ),
        # configuration management and its test tools
        *("ansible", "ansible-core", "ansible-lint", "molecule", "pywinrm", "paramiko", "fabric"),
    }
)

NPM = frozenset(
    {
        # the clouds' SDKs and the forges' and chat services' clients
        *("@azure/identity", "@azure/keyvault-secrets", "@azure/storage-blob", "@azure/msal-node"),
        *("@google-cloud/storage", "@google-cloud/pubsub", "@octokit/rest", "@slack/web-api"),
        # platforms' SDKs and CLIs (Firebase, Supabase, Cloudflare, AWS CDK, Vercel, Sentry, Upstash, Clerk)
        *("firebase-tools", "firebase-admin", "@supabase/supabase-js", "@supabase/ssr"),
        *("wrangler", "@cloudflare/workers-types", "aws-cdk-lib", "aws-cdk", "constructs", "cdk-nag"),
        *("@sentry/nextjs", "@sentry/react", "@vercel/analytics", "@upstash/redis"),
        *("@clerk/nextjs", "drizzle-orm", "@changesets/cli"),
        # the reference MCP servers agents are told to start with `npx -y`
        *("@modelcontextprotocol/server-filesystem", "@modelcontextprotocol/server-github"),
        *("@modelcontextprotocol/server-postgres", "@modelcontextprotocol/server-sqlite"),
        *("@modelcontextprotocol/server-slack", "@modelcontextprotocol/server-memory"),
        *("@modelcontextprotocol/server-puppeteer", "@modelcontextprotocol/server-brave-search"),
        *("@modelcontextprotocol/server-everything", "@modelcontextprotocol/server-sequential-thinking"),
        *("@modelcontextprotocol/server-gitlab", "@modelcontextprotocol/server-redis"),
        *("@modelcontextprotocol/server-google-maps", "@modelcontextprotocol/sdk", "@playwright/mcp"),
        *("express-session", "mapbox-gl", "laravel-vite-plugin", "@inertiajs/vue3", "@inertiajs/react"),
        # the build plugins and test tools every front end of a framework names
        *("@vitejs/plugin-react", "@vitejs/plugin-vue", "@vitejs/plugin-react-swc", "@sveltejs/kit"),
        *("@testing-library/react", "@testing-library/jest-dom", "@typescript-eslint/parser", "@next/env"),
        *("@auth/core", "next-auth", "@reduxjs/toolkit", "@mui/material", "@radix-ui/react-dialog"),
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

# JSR, Deno's registry: its most used packages (every name is scoped: `@std/assert`)
JSR = frozenset(
    {
        *("@std/assert", "@std/dotenv", "@std/path", "@std/fs", "@std/http", "@std/testing", "@std/expect"),
        *("@std/encoding", "@std/async", "@std/collections", "@std/fmt", "@std/json", "@std/yaml"),
        *("@std/toml", "@std/uuid", "@std/crypto", "@std/streams", "@std/cli", "@std/log", "@std/datetime"),
        *("@std/semver", "@std/ulid", "@std/front-matter", "@std/media-types", "@std/net", "@std/text"),
        *("@fresh/core", "@fresh/init", "@fresh/plugin-tailwind", "@hono/hono", "@oak/oak", "@deno/gfm"),
        *("@deno/dnt", "@deno/emit", "@luca/esbuild-deno-loader", "@david/dax", "@cliffy/command"),
        *("@zod/zod", "@supabase/supabase-js", "@libsql/client", "@upstash/redis", "@preact/signals"),
    }
)
# Hackage, Haskell's registry: the packages most projects depend on
HACKAGE = frozenset(
    {
        *("aeson", "text", "bytestring", "containers", "mtl", "transformers", "lens", "servant"),
        *("servant-server", "servant-client", "warp", "wai", "wai-extra", "wai-cors", "http-client"),
        *("http-client-tls", "http-types", "http-conduit", "postgresql-simple", "persistent"),
        *("persistent-postgresql", "esqueleto", "hasql", "opaleye", "beam-core", "sqlite-simple"),
        *("cryptonite", "crypton", "memory", "vector", "unordered-containers", "hashable", "async", "stm"),
        *("conduit", "attoparsec", "megaparsec", "optparse-applicative", "quickcheck", "hspec", "tasty"),
        *("hedgehog", "random", "time", "directory", "filepath", "process", "network", "tls", "jose"),
        *("bcrypt", "password", "scotty", "yesod", "req", "wreq", "cassava", "yaml", "unix", "deepseq"),
        *("exceptions", "resourcet", "monad-logger", "katip", "generic-lens", "dhall", "pandoc"),
        *("criterion", "safe-exceptions", "unliftio", "rio", "relude", "uuid", "base64-bytestring"),
        *("cryptohash-sha256", "data-default", "amazonka", "stripe-haskell", "jwt", "template-haskell"),
    }
)
# Hex's most used packages (Elixir and Erlang), kept by hand; `phx_new` is Phoenix's project generator
HEX = frozenset(
    {
        *("phoenix", "phoenix_html", "phoenix_live_view", "phoenix_live_dashboard", "phoenix_pubsub"),
        *("phoenix_ecto", "phoenix_template", "phx_new", "ecto", "ecto_sql", "postgrex", "myxql", "plug"),
        *("plug_cowboy", "cowboy", "bandit", "jason", "poison", "telemetry", "telemetry_metrics", "req"),
        *("finch", "mint", "tesla", "hackney", "httpoison", "oban", "absinthe", "ex_doc", "credo"),
        *("dialyxir", "swoosh", "gettext", "floki", "timex", "decimal", "castore", "ex_aws", "bcrypt_elixir"),
        *("argon2_elixir", "guardian", "joken", "ueberauth", "sobelow", "mix_audit", "excoveralls", "mox"),
        *("ex_machina", "esbuild", "tailwind", "libcluster", "broadway", "gen_stage", "nx", "explorer"),
        *("tzdata", "cachex", "redix", "ranch", "cowlib", "earmark", "nimble_options", "nimble_parsec"),
        *("websock_adapter", "thousand_island", "db_connection", "telemetry_poller", "expo", "file_system"),
        *("rebar3_hex", "hex_core", "lager", "recon", "meck", "proper", "jsx", "jiffy", "gun", "hackney"),
    }
)
# pub.dev's most used packages (Dart and Flutter), kept by hand
PUB = frozenset(
    {
        *("http", "dio", "provider", "riverpod", "flutter_riverpod", "bloc", "flutter_bloc", "get", "get_it"),
        *("shared_preferences", "path_provider", "sqflite", "hive", "hive_flutter", "url_launcher", "intl"),
        *(
            "flutter_secure_storage",
            "firebase_core",
            "firebase_auth",
            "cloud_firestore",
            "firebase_messaging",
        ),
        *("firebase_storage", "firebase_analytics", "firebase_crashlytics", "google_sign_in", "image_picker"),
        *("cached_network_image", "equatable", "freezed", "freezed_annotation", "json_annotation"),
        *("json_serializable", "build_runner", "go_router", "auto_route", "flutter_svg", "connectivity_plus"),
        *("device_info_plus", "package_info_plus", "permission_handler", "geolocator", "google_maps_flutter"),
        *(
            "supabase_flutter",
            "supabase",
            "collection",
            "uuid",
            "logger",
            "rxdart",
            "flutter_local_notifications",
        ),
        *("mockito", "mocktail", "flutter_lints", "lints", "very_good_analysis", "melos", "path", "crypto"),
        *("webview_flutter", "video_player", "camera", "local_auth", "flutter_dotenv", "envied", "shelf"),
    }
)
CRATES = frozenset(
    {
        *("serde", "serde-json", "serde-yaml", "tokio", "rand", "clap", "anyhow", "thiserror", "regex"),
        *("reqwest", "log", "env-logger", "tracing", "tracing-subscriber", "chrono", "futures", "hyper"),
        *(
            "axum",
            "actix-web",
            "itertools",
            "lazy-static",
            "once-cell",
            "bytes",
            "syn",
            "quote",
            "proc-macro2",
        ),
        *("rust-decimal", "rayon", "uuid", "base64", "sqlx", "diesel", "tonic", "prost", "indexmap"),
        *("hashbrown", "parking-lot", "crossbeam", "bitflags", "libc", "nix", "dirs", "tempfile", "walkdir"),
        *("toml", "url", "time", "num", "image", "criterion", "tower", "rustls", "openssl", "ring", "sha2"),
    }
)
RUBYGEMS = frozenset(
    {
        *("rails", "rack", "rake", "bundler", "nokogiri", "rest-client", "json", "puma", "sinatra", "rspec"),
        *("fastlane", "cocoapods", "xcpretty", "danger"),
        *("devise", "pg", "mysql2", "redis", "sidekiq", "activesupport", "activerecord", "httparty"),
        *("faraday", "thor", "pry", "rubocop", "minitest", "aws-sdk", "jwt", "bcrypt", "capistrano"),
        *("unicorn", "rack-test", "factory_bot", "faker", "dotenv", "rubyzip", "mime-types", "addressable"),
        # the gems a Rails application's Gemfile usually names
        *("devise-jwt", "rails-html-sanitizer", "actionpack", "actionview", "activejob", "railties"),
        *("sidekiq-cron", "rack-cors", "rack-attack", "bootsnap", "jbuilder", "pundit", "cancancan"),
        *("kaminari", "pagy", "rspec-rails", "factory_bot_rails", "dotenv-rails", "brakeman"),
        "bundler-audit",
        *("image_processing", "aws-sdk-s3", "stripe", "sprockets", "importmap-rails", "turbo-rails"),
    }
)
# NuGet's most used packages (names compared in lower case, as NuGet does)
NUGET = frozenset(
    n.lower()
    for n in (
        *("Newtonsoft.Json", "Serilog", "Serilog.Sinks.Console", "Serilog.AspNetCore", "Npgsql", "Dapper"),
        *("Npgsql.EntityFrameworkCore.PostgreSQL", "Microsoft.EntityFrameworkCore", "AutoMapper", "MediatR"),
        *("Microsoft.EntityFrameworkCore.SqlServer", "Microsoft.EntityFrameworkCore.Design"),
        *("Microsoft.AspNetCore.Authentication.JwtBearer", "Microsoft.Extensions.Http", "xunit", "NUnit"),
        *("xunit.runner.visualstudio", "Moq", "FluentAssertions", "Swashbuckle.AspNetCore", "Polly"),
        *("StackExchange.Redis", "Stripe.net", "SendGrid", "Azure.Storage.Blobs", "Azure.Identity"),
        *(
            "System.IdentityModel.Tokens.Jwt",
            "Microsoft.NET.Test.Sdk",
            "coverlet.collector",
            "BCrypt.Net-Next",
        ),
        *("FluentValidation", "Hangfire"),
    )
)
# The registries images come from besides Docker Hub: a host named like one of them serves impostors
IMAGE_REGISTRIES = (
    *("mcr.microsoft.com", "ghcr.io", "gcr.io", "quay.io", "registry.k8s.io", "public.ecr.aws"),
    *("registry.gitlab.com", "docker.io", "index.docker.io", "cgr.dev", "k8s.gcr.io", "docker.elastic.co"),
    *("nvcr.io", "registry.access.redhat.com", "registry.redhat.io"),
)
GO = frozenset(
    {
        *(
            "github.com/gorilla/mux",
            "github.com/gin-gonic/gin",
            "github.com/spf13/cobra",
            "github.com/spf13/viper",
        ),
        *("github.com/sirupsen/logrus", "github.com/stretchr/testify", "github.com/google/uuid"),
        *("github.com/pkg/errors", "github.com/go-chi/chi", "github.com/labstack/echo", "go.uber.org/zap"),
        *("github.com/golang-jwt/jwt", "github.com/jackc/pgx", "github.com/lib/pq", "gorm.io/gorm"),
        *("github.com/go-redis/redis", "github.com/redis/go-redis", "google.golang.org/grpc"),
        *("github.com/prometheus/client_golang", "github.com/aws/aws-sdk-go", "github.com/urfave/cli"),
        *("github.com/boltdb/bolt", "go.etcd.io/bbolt", "github.com/gofiber/fiber"),
        *("github.com/joho/godotenv",),
        *("github.com/rs/zerolog", "github.com/mattn/go-sqlite3", "github.com/go-sql-driver/mysql"),
        *("github.com/gorilla/websocket", "github.com/valyala/fasthttp"),
        *("github.com/julienschmidt/httprouter",),
        *("github.com/joho/godotenv", "github.com/fatih/color", "github.com/mattn/go-sqlite3"),
        *("golang.org/x/crypto", "golang.org/x/net", "golang.org/x/sync", "github.com/gofiber/fiber"),
        # service meshes', message buses' and build tools' modules Go services name
        *("github.com/nats-io/nats.go", "github.com/nats-io/nats-server", "google.golang.org/protobuf"),
        *(
            "github.com/grpc-ecosystem/grpc-gateway",
            "github.com/golangci/golangci-lint",
            "github.com/bufbuild/buf",
        ),
        *("github.com/hashicorp/vault", "github.com/hashicorp/consul", "github.com/hashicorp/nomad"),
        *("github.com/pulumi/pulumi", "github.com/aws/aws-sdk-go-v2", "github.com/goreleaser/goreleaser"),
        # the code generators, migrators, linters and dev servers Go projects run with `go run X@version`
        *("github.com/sqlc-dev/sqlc", "github.com/air-verse/air", "github.com/cosmtrek/air"),
        *("github.com/swaggo/swag", "github.com/golang-migrate/migrate", "github.com/pressly/goose"),
        *("github.com/vektra/mockery", "github.com/golang/mock", "github.com/oapi-codegen/oapi-codegen"),
        *("github.com/deepmap/oapi-codegen", "github.com/google/wire", "github.com/99designs/gqlgen"),
        *("github.com/securego/gosec", "github.com/mgechev/revive", "github.com/go-task/task"),
        *("github.com/magefile/mage", "github.com/a-h/templ", "github.com/go-delve/delve", "entgo.io/ent"),
        *("github.com/charmbracelet/bubbletea", "github.com/grafana/grafana", "github.com/uber-go/mock"),
        *("github.com/kyleconroy/sqlc", "github.com/segmentio/golines", "github.com/daixiang0/gci"),
        *(
            "github.com/open-telemetry/opentelemetry-go",
            "github.com/tinygo-org/tinygo",
            "github.com/google/ko",
        ),
    }
)
PACKAGIST = frozenset(
    {
        *("symfony/symfony", "symfony/console", "symfony/http-foundation", "laravel/framework"),
        *("guzzlehttp/guzzle", "monolog/monolog", "phpunit/phpunit", "doctrine/orm", "vlucas/phpdotenv"),
        *("nesbot/carbon", "league/flysystem", "ramsey/uuid", "twig/twig", "psr/log", "composer/composer"),
        *("laravel/installer", "laravel/horizon", "laravel/sanctum", "laravel/passport", "laravel/telescope"),
        *("spatie/laravel-permission", "livewire/livewire", "filament/filament", "inertiajs/inertia-laravel"),
        *(
            "stripe/stripe-php",
            "barryvdh/laravel-debugbar",
            "pestphp/pest",
            "predis/predis",
            "aws/aws-sdk-php",
        ),
    }
)

# Docker Hub's official images (`docker.io/library/NAME`): what `docker run NAME` usually means
DOCKER = frozenset(
    {
        *("nginx", "postgres", "redis", "node", "python", "ubuntu", "alpine", "debian", "mysql", "mongo"),
        *("httpd", "golang", "openjdk", "eclipse-temurin", "amazoncorretto", "ruby", "php", "rust"),
        *("busybox",),
        *("traefik", "haproxy", "memcached", "rabbitmq", "mariadb", "elasticsearch", "kibana", "logstash"),
        *("grafana", "consul", "vault", "registry", "jenkins", "sonarqube", "wordpress", "ghost", "caddy"),
        *("centos", "fedora", "amazonlinux", "archlinux", "rockylinux", "almalinux", "bash", "gradle"),
        *("maven", "tomcat", "jetty", "influxdb", "telegraf", "cassandra", "couchdb", "neo4j", "zookeeper"),
        *("sentry", "nextcloud", "owncloud", "composer", "docker", "hello-world", "perl", "erlang", "elixir"),
        *("swift", "julia", "haskell", "clojure", "groovy", "pypy", "buildpack-deps", "solr", "percona"),
    }
)
# A registry by the word a tool or server is named with (`mcp__pypi__install_package`, `npm_install`)
REGISTRY_WORDS = {
    **dict.fromkeys(("pypi", "pip", "python", "uv"), "pypi"),
    **dict.fromkeys(("npm", "node", "yarn", "pnpm"), "npm"),
    **dict.fromkeys(("cargo", "crates", "crate", "rust"), "crates"),
    **dict.fromkeys(("gem", "gems", "rubygems", "ruby"), "rubygems"),
    **dict.fromkeys(("composer", "packagist", "php"), "packagist"),
    **dict.fromkeys(("docker", "container", "containers"), "docker"),
}
# Maven Central's most depended-on group ids: a group one or two letters from one of them, part by part
# (`com.fasterxmI.jackson.datatype`, `com.squareup.okhtttp3`), poses as its publisher
MAVEN_GROUPS = frozenset(
    {
        *("com.fasterxml.jackson.core", "com.fasterxml.jackson.module", "com.fasterxml.jackson.datatype"),
        *("com.squareup.okhttp3", "com.squareup.retrofit2", "com.squareup.moshi", "com.squareup.okio"),
        *("com.google.guava", "com.google.code.gson", "com.google.firebase", "com.google.android.material"),
        *("com.google.dagger", "com.google.protobuf", "com.google.cloud", "com.google.auth"),
        *("org.springframework", "org.springframework.boot", "org.springframework.security"),
        *("org.springframework.cloud", "org.apache.commons", "org.apache.logging.log4j"),
        *("org.apache.httpcomponents", "org.apache.httpcomponents.client5"),
        *("org.apache.kafka", "org.slf4j", "ch.qos.logback", "org.jetbrains.kotlin", "org.jetbrains.kotlinx"),
        *("io.ktor", "io.netty", "io.micrometer", "io.projectreactor", "io.grpc", "io.jsonwebtoken"),
        *("io.github.microutils", "org.hibernate", "org.hibernate.orm", "org.postgresql", "com.mysql"),
        *("org.flywaydb", "org.liquibase", "org.junit.jupiter", "org.mockito", "io.mockk", "org.assertj"),
        *("org.testcontainers", "software.amazon.awssdk", "com.amazonaws", "androidx.core"),
        *("androidx.appcompat",),
        *("androidx.compose.ui", "androidx.lifecycle", "androidx.room", "io.reactivex.rxjava3", "com.auth0"),
        *("org.bouncycastle", "com.nimbusds", "org.yaml", "commons-io", "commons-codec", "joda-time"),
        *("org.projectlombok", "org.mapstruct", "io.swagger.core.v3", "org.springdoc", "com.zaxxer"),
    }
)
# What builds Python packages: the backends PEP 517 names and the tools their builds need. A
# `[build-system]` that requires something else runs code nobody vets at every install of the project.
PYTHON_BUILD_TOOLS = frozenset(
    {
        *("setuptools", "setuptools-scm", "setuptools-rust", "setuptools-golang", "wheel", "build", "pip"),
        *("hatchling", "hatch-vcs", "hatch-fancy-pypi-readme", "hatch-requirements-txt"),
        *("hatch-jupyter-builder", "poetry-core", "poetry", "poetry-dynamic-versioning", "flit-core", "flit"),
        *("pdm-backend", "pdm-pep517", "maturin", "scikit-build-core", "scikit-build", "meson-python"),
        *("meson", "cmake", "ninja", "uv-build", "cython", "pybind11", "nanobind", "cffi", "numpy"),
        *("oldest-supported-numpy", "extension-helpers", "packaging", "versioneer", "toml", "tomli", "sip"),
        *("jupyter-packaging", "enscons", "whey", "mypy", "sphinx-theme-builder"),
    }
)
# Publishers of the container images clusters commonly run, besides Docker Hub's official images (no
# namespace): Docker Hub namespaces, and the owners under registries that host anyone (quay.io, ghcr.io,
# gcr.io, public.ecr.aws). With the registries one publisher runs (`IMAGE_REGISTRIES` but the shared ones),
# an image from anyone else, run in a cluster, is code from an outside publisher.
IMAGE_PUBLISHERS = frozenset(
    {
        *("library", "bitnami", "bitnamicharts", "grafana", "prom", "prometheus", "curlimages", "nicolaka"),
        *("hashicorp", "jetstack", "envoyproxy", "istio", "calico", "rancher", "traefik", "nginxinc", "kong"),
        *("confluentinc", "amazon", "docker", "cimg", "circleci", "gitlab", "jenkins", "sonarsource"),
        *("openpolicyagent", "fluent", "otel", "jaegertracing", "openzipkin", "minio", "argoproj", "fluxcd"),
        *("kubernetesui", "coredns", "google-containers", "distroless", "aquasec", "anchore", "datadog"),
        *("newrelic", "elastic", "timberio", "localstack", "testcontainers", "selenium", "cypress", "coreos"),
        *("cloudnative-pg", "strimzi", "kedacore", "kyverno", "falcosecurity", "linkerd", "cilium"),
        *("open-telemetry", "kubernetes", "kubernetes-sigs", "external-secrets", "cert-manager", "dexidp"),
        *("oauth2-proxy", "postgres", "mysql", "redis", "mongo", "apache", "bats", "alpine", "busybox"),
        *("hexpm", "flyio", "supabase", "vercel", "cloudflare", "mcr", "microsoft", "pulumi", "snowflakedb"),
        # data science's: R (the Rocker project), Jupyter's stacks, conda's
        *("rocker", "jupyter", "continuumio", "condaforge", "mambaorg", "posit"),
    }
)
# Of `IMAGE_REGISTRIES`, those that host anyone: an image's owner there is its first path component
SHARED_IMAGE_REGISTRIES = frozenset({"quay.io", "ghcr.io", "gcr.io", "public.ecr.aws", "registry.gitlab.com"})
# Repositories projects take straight from GitHub by `OWNER/REPO` (Foundry's `forge install`), and the Go
# modules on GitHub
GITHUB = frozenset(
    {
        *("openzeppelin/openzeppelin-contracts", "openzeppelin/openzeppelin-contracts-upgradeable"),
        *("foundry-rs/forge-std", "transmissions11/solmate", "vectorized/solady", "dapphub/ds-test"),
        *("smartcontractkit/chainlink", "smartcontractkit/chainlink-brownie-contracts", "uniswap/v3-core"),
        *("uniswap/v3-periphery", "uniswap/v4-core", "uniswap/permit2", "safe-global/safe-smart-account"),
        *("aave/aave-v3-core", "layerzero-labs/layerzero-v2", "eth-infinitism/account-abstraction"),
        # the flake inputs most Nix projects pull (their owners' names are what an impostor takes)
        *("nixos/nixpkgs", "numtide/flake-utils", "hercules-ci/flake-parts", "nix-community/home-manager"),
        *("serokell/deploy-rs", "zhaofengli/colmena", "mic92/sops-nix", "ryantm/agenix", "cachix/devenv"),
        *("nix-community/disko", "nix-community/nixos-anywhere", "lnl7/nix-darwin", "oxalica/rust-overlay"),
        # the cloud-native tools whose documented installers are scripts in their own repositories
        *(
            "kubernetes-sigs/kustomize",
            "kubernetes-sigs/kind",
            "fluxcd/flux2",
            "argoproj/argo-cd",
            "helm/helm",
        ),
        *("derailed/k9s", "ahmetb/kubectx", "kubernetes/kubernetes", "cli/cli", "goreleaser/goreleaser"),
        *("aquasecurity/trivy", "anchore/syft", "anchore/grype", "sigstore/cosign", "open-policy-agent/opa"),
        *("cargo-bins/cargo-binstall", "rustwasm/wasm-pack", "bytecodealliance/wasmtime", "casey/just"),
        # toolchains and version managers whose documented installs run a script or a release of their own
        *("microsoft/vcpkg", "kitware/cmake", "llvm/llvm-project", "rbenv/rbenv-installer", "rbenv/rbenv"),
        *("asdf-vm/asdf", "nvm-sh/nvm", "pyenv/pyenv", "conda-forge/miniforge", "ninja-build/ninja"),
        *(
            "asdf-vm/asdf-erlang",
            "asdf-vm/asdf-elixir",
            "asdf-vm/asdf-nodejs",
            "erlang/otp",
            "elixir-lang/elixir",
        ),
        # Elixir's and Erlang's own, and the web3 libraries projects vendor from their repositories
        *("phoenixframework/phoenix", "ninenines/cowboy", "ninenines/ranch", "erlang/rebar3", "hexpm/hex"),
        *("foundry-rs/foundry", "ethers-io/ethers.js", "wevm/viem", "nomicfoundation/hardhat"),
        # the model repositories PyTorch's documentation loads through `torch.hub`
        *(
            "pytorch/vision",
            "pytorch/audio",
            "facebookresearch/dinov2",
            "ultralytics/yolov5",
            "intel-isl/midas",
        ),
        *(m.removeprefix("github.com/") for m in GO if m.startswith("github.com/")),
    }
)

# The Go module paths' first parts of the modules above off a forge (`golang.org/x/...`, `go.uber.org`) and
# of the Go team's and the big projects' own domains: a module there is published by the domain's owner
GO_PUBLISHER_DOMAINS = frozenset(
    {
        *(m.split("/", 1)[0] for m in GO if not m.startswith("github.com/")),
        *(
            "golang.org",
            "google.golang.org",
            "cloud.google.com",
            "go.opentelemetry.io",
            "k8s.io",
            "sigs.k8s.io",
        ),
        *(
            "honnef.co",
            "mvdan.cc",
            "gotest.tools",
            "gopkg.in",
            "go.temporal.io",
            "entgo.io",
            "connectrpc.com",
        ),
        *(
            "buf.build",
            "helm.sh",
            "tailscale.com",
            "go.mongodb.org",
            "filippo.io",
            "gvisor.dev",
            "knative.dev",
        ),
    }
)


def known_go_publisher(module: str) -> bool:
    """A Go module published by an owner Go projects commonly take modules from: a domain of its own above
    (`golang.org/x/tools`), or on a forge an account that publishes a well-known module or repository
    (`github.com/golangci/...`)."""
    host, _, rest = module.lower().partition("/")
    if host in GO_PUBLISHER_DOMAINS:
        return True
    owner = rest.split("/", 1)[0]
    return bool(owner) and known_forge_owner(owner)


_KNOWN_OWNERS = frozenset(repository.split("/", 1)[0] for repository in GITHUB)


def known_forge_owner(owner: str) -> bool:
    """An account on a source forge that publishes a well-known module or repository (`GITHUB`, `GO`)."""
    return owner.lower() in _KNOWN_OWNERS


# conda's best-known channels: a channel named like one (`bi0conda`) serves its owner's builds of everything
CONDA_CHANNELS = frozenset(
    {
        "conda-forge",
        "bioconda",
        "defaults",
        "anaconda",
        "pytorch",
        "nvidia",
        "main",
        "free",
        "pytorch-nightly",
    }
)
# PowerShell's modules: Windows' own (shipped with the system or a server role) and the PowerShell Gallery's
# most installed, by the name `Import-Module` and `Install-Module` take
PSGALLERY = frozenset(
    n.lower()
    for n in (
        *("ActiveDirectory", "GroupPolicy", "DnsServer", "DhcpServer", "ScheduledTasks", "NetSecurity"),
        *(
            "NetTCPIP",
            "NetAdapter",
            "Storage",
            "SmbShare",
            "Hyper-V",
            "WebAdministration",
            "IISAdministration",
        ),
        *("ServerManager", "BitLocker", "Defender", "PKI", "PSDesiredStateConfiguration", "CimCmdlets"),
        *("Microsoft.PowerShell.Management", "Microsoft.PowerShell.Utility", "Microsoft.PowerShell.Security"),
        *("Microsoft.PowerShell.Archive", "PowerShellGet", "PackageManagement", "PrintManagement"),
        *("RemoteDesktop", "UpdateServices", "ADDSDeployment", "FailoverClusters", "International"),
        *("Appx", "Dism", "WindowsUpdate", "TrustedPlatformModule", "NetworkConnectivityStatus"),
        *("Az", "Az.Accounts", "Az.Resources", "Az.Compute", "Az.Storage", "Az.KeyVault", "Az.Network"),
        *("Az.Websites", "Az.Sql", "Az.Monitor", "Az.Aks", "Az.ContainerRegistry", "Az.Functions"),
        *(
            "Microsoft.Graph",
            "Microsoft.Graph.Authentication",
            "Microsoft.Graph.Users",
            "Microsoft.Graph.Groups",
        ),
        *("Microsoft.Graph.DeviceManagement", "Microsoft.Graph.Identity.SignIns", "Microsoft.Graph.Beta"),
        *(
            "Microsoft.Graph.Reports",
            "Microsoft.Graph.Applications",
            "Microsoft.Graph.Identity.DirectoryManagement",
        ),
        *("ExchangeOnlineManagement", "MicrosoftTeams", "PnP.PowerShell", "AzureAD", "MSOnline"),
        *(
            "Microsoft.Online.SharePoint.PowerShell",
            "MicrosoftPowerBIMgmt",
            "Microsoft.PowerApps.Administration.PowerShell",
        ),
        *(
            "Pester",
            "PSScriptAnalyzer",
            "PSReadLine",
            "posh-git",
            "oh-my-posh",
            "Terminal-Icons",
            "ImportExcel",
        ),
        *("dbatools", "SqlServer", "PSWindowsUpdate", "VMware.PowerCLI", "AWS.Tools.Common", "AWSPowerShell"),
        *("AWS.Tools.Installer", "AWS.Tools.S3", "AWS.Tools.EC2", "platyPS", "InvokeBuild", "Plaster"),
        *("ThreadJob", "PSFramework", "NTFSSecurity", "Carbon", "BurntToast", "PSDscResources", "Posh-SSH"),
        *("Microsoft.PowerShell.SecretManagement", "Microsoft.PowerShell.SecretStore", "PSWriteHTML"),
        *(
            "ActiveDirectoryDsc",
            "ComputerManagementDsc",
            "NetworkingDsc",
            "xWebAdministration",
            "Microsoft.WinGet.Client",
        ),
        *(
            "PSGitHub",
            "powershell-yaml",
            "Microsoft.PowerShell.ConsoleGuiTools",
            "Microsoft.PowerShell.Crescendo",
        ),
        *("LAPS", "AdmPwd.PS", "IntuneWin32App", "WindowsAutopilotIntune", "Microsoft.Graph.Intune"),
    )
)
POPULAR = {
    "conda_channel": CONDA_CHANNELS,
    "psgallery": PSGALLERY,
    "github": GITHUB,
    "pypi": PYPI,
    "npm": NPM,
    "crates": CRATES,
    "rubygems": RUBYGEMS,
    "nuget": NUGET,
    "go": GO,
    "packagist": PACKAGIST,
    "docker": DOCKER,
    "maven": MAVEN_GROUPS,
    "jsr": JSR,
    "hackage": HACKAGE,
    "pub": PUB,
    "hex": HEX,
}
# A requirement that names its registry before its name (Deno's `npm:chalk@5`, `jsr:@std/path`): that
# registry, whichever the installer's own is
SPEC_REGISTRIES = {"npm:": "npm", "jsr:": "jsr"}


def spec_registry(registry: str, spec: str) -> tuple[str, str]:
    """(registry, requirement) with a registry-naming prefix taken off (`npm:stripe` -> ("npm", "stripe"))."""
    for prefix, named in SPEC_REGISTRIES.items():
        if spec.startswith(prefix):
            return named, spec[len(prefix) :]
    return registry, spec


# Releases published by attackers or by a hijacked maintainer account: (registry, name) -> the versions that
# carry the payload; an empty set means every version of that name does. A few well-documented incidents;
# a name here is judged whatever its popularity.
KNOWN_MALICIOUS: dict[tuple[str, str], frozenset[str]] = {
    ("npm", "event-stream"): frozenset({"3.3.6"}),
    ("npm", "flatmap-stream"): frozenset(),
    ("npm", "ua-parser-js"): frozenset({"0.7.29", "0.8.0", "1.0.0"}),
    ("npm", "coa"): frozenset({"2.0.3", "2.0.4", "2.1.1", "2.1.3", "3.0.1", "3.1.3"}),
    ("npm", "rc"): frozenset({"1.2.9", "1.3.9", "2.3.9"}),
    ("npm", "node-ipc"): frozenset({"10.1.1", "10.1.2", "10.1.3"}),
    ("npm", "colors"): frozenset({"1.4.1", "1.4.2", "1.4.44-liberty-2"}),
    ("npm", "faker"): frozenset({"6.6.6"}),
    ("npm", "eslint-scope"): frozenset({"3.7.2"}),
    ("npm", "getcookies"): frozenset(),
    ("npm", "crossenv"): frozenset(),
    ("npm", "@solana/web3.js"): frozenset({"1.95.6", "1.95.7"}),
    ("pypi", "ctx"): frozenset({"0.1.2", "0.2.2", "0.2.6"}),
    ("pypi", "torchtriton"): frozenset(),
    ("pypi", "jeilyfish"): frozenset(),
    ("pypi", "python3-dateutil"): frozenset(),
    ("pypi", "ultralytics"): frozenset({"8.3.41", "8.3.42", "8.3.45", "8.3.46"}),
    ("crates", "rustdecimal"): frozenset(),
    # crates that stole keys at run time, removed from crates.io in 2025 (folded as crates.io folds names)
    ("crates", "faster-log"): frozenset(),
    ("crates", "async-println"): frozenset(),
    # gems whose maintainers' accounts published backdoored releases, and a typosquat of `atlas_client`
    ("rubygems", "rest-client"): frozenset({"1.6.10", "1.6.11", "1.6.12", "1.6.13"}),
    ("rubygems", "strong_password"): frozenset({"0.0.7"}),
    ("rubygems", "bootstrap-sass"): frozenset({"3.2.0.3"}),
    ("rubygems", "atlas-client"): frozenset(),
    # a name models invent for Hugging Face's CLI (the real one is `huggingface_hub[cli]`), registered by
    # someone else
    ("pypi", "huggingface-cli"): frozenset(),
    # September 2025: maintainers' accounts phished, worm-carrying releases published (since unpublished)
    ("npm", "chalk"): frozenset({"5.6.1"}),
    ("npm", "debug"): frozenset({"4.4.2"}),
    ("npm", "ansi-styles"): frozenset({"6.2.2"}),
    ("npm", "strip-ansi"): frozenset({"7.1.1"}),
    ("npm", "color-convert"): frozenset({"3.1.1"}),
    ("npm", "@ctrl/tinycolor"): frozenset({"4.1.1", "4.1.2"}),
    **{
        ("npm", name): frozenset({version})
        for name, version in (
            *(("supports-color", "10.2.1"), ("wrap-ansi", "9.0.1"), ("slice-ansi", "7.1.1")),
            *(("color-name", "2.0.1"), ("is-arrayish", "0.3.3"), ("error-ex", "1.3.3")),
            *(("simple-swizzle", "0.2.3"), ("has-ansi", "6.0.1"), ("chalk-template", "1.1.1")),
            *(("backslash", "0.2.1"), ("color-string", "2.1.1"), ("color", "5.0.1")),
            *(("supports-hyperlinks", "4.1.1"), ("ansi-regex", "6.2.1")),
        )
    },
    # August 2025 ("s1ngularity"): Nx's publishing token stolen, releases that searched the machine for
    # wallets and keys and published them to the victim's own GitHub
    ("npm", "nx"): frozenset(
        {"20.9.0", "20.10.0", "20.11.0", "20.12.0", "21.5.0", "21.6.0", "21.7.0", "21.8.0"}
    ),
    ("npm", "@nx/devkit"): frozenset({"20.9.0", "21.5.0"}),
    ("npm", "@nx/js"): frozenset({"20.9.0", "21.5.0"}),
    ("npm", "@nx/node"): frozenset({"20.9.0", "21.5.0"}),
    ("npm", "@nx/workspace"): frozenset({"20.9.0", "21.5.0"}),
    ("npm", "@nx/eslint"): frozenset({"21.5.0"}),
    ("npm", "@nx/key"): frozenset({"3.2.0"}),
    ("npm", "@nx/enterprise-cloud"): frozenset({"3.2.0"}),
}


def alias_swap(spec: str) -> tuple[str, str] | None:
    """(the name, the package installed) of an npm alias that installs another package under a name
    (`next@npm:nextjs-turbo-build`, a manifest's `"@supabase/ssr": "npm:@someone/ssr-helpers"` as
    `NAME@npm:...`) every project knows or an organisation's scope: code from another publisher is
    imported as theirs. None for none (an alias to the same package, to the scope's own package, or under
    a name of the project's own making)."""
    alias, found, _ = spec.partition("@npm:")
    if not found:
        return None
    named, target = package_name("npm", alias), package_name("npm", spec)
    if not named or not target or target == named:
        return None
    scope = named.split("/", 1)[0] if named.startswith("@") else ""
    if scope and target.startswith(scope + "/"):
        return None
    # (a target named as the alias with words hung on it, `ethers` for `ethers-js-v6`, poses as it)
    posing = target.startswith((named + "-", named + "_", named + ".")) or decorated(target, named)
    return (named, target) if scope or named in POPULAR["npm"] or posing else None


# A requirement's name: before extras, a version, a marker or a direct reference (`name[x]>=1; python...`)
_PYPI_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def package_name(registry: str, spec: str) -> str:
    """The name a registry knows a requirement by (`Requests[socks]==2.*` -> `requests`, `lodash@4` ->
    `lodash`, `@types/node@20` -> `@types/node`, `github.com/a/b@v1` -> `github.com/a/b`); "" for a path,
    a URL or anything else."""
    spec = spec.strip()
    if registry == "github":  # `OWNER/REPO@v5.0.2`, `https://github.com/OWNER/REPO.git`
        found = re.fullmatch(r"(?:(?:https?://)?github\.com/)?([\w.-]+/[\w.-]+?)(?:\.git)?/?(?:@\S*)?", spec)
        return found.group(1).lower() if found else ""
    if registry == "docker":  # `docker://ubuntu:22.04`: how apptainer and skopeo name a registry's image
        spec = spec.removeprefix("docker://")
    if not spec or "://" in spec or spec.startswith((".", "/", "~", "-", "git+", "file:")):
        return ""
    if registry == "npm" and "npm:" in spec:  # an alias (`supabase-js@npm:@supabse/supabase-js@^2`): what
        spec = spec.split("npm:", 1)[1]  # is installed is the package after `npm:`, under the alias's name
    if registry in ("npm", "jsr"):  # (JSR's names are all scoped: a bare word is a file or a task)
        name = spec if "@" not in spec[1:] else spec[: spec.index("@", 1)]
        scope = r"@[\w.-]+/" if registry == "jsr" else r"(?:@[\w.-]+/)?"
        return name.lower() if re.fullmatch(scope + r"[\w.-]+", name) else ""
    if registry == "hackage":  # `postgresql-simple`, `aeson >=2.1`, `QuickCheck-2.14.3`
        found = re.match(r"[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z][A-Za-z0-9]*)*", spec)
        return found.group(0).lower() if found else ""
    if registry == "nuget":  # `Newtonsoft.Json`: dots are part of the name, case is not
        found = re.match(r"[A-Za-z0-9_][\w.-]*", spec.strip())
        return found.group(0).lower() if found and "/" not in spec else ""
    if registry == "hex":  # `plug_cowboy`, `:plug_cowboy`, `jason 1.4.4`: lower case with underscores
        found = re.match(r":?([a-z][a-z0-9_]*)", spec)
        return found.group(1) if found else ""
    if registry in ("rubygems", "pub"):  # `devise_jwt` and `devise-jwt` are two gems (PyPI and crates.io fold
        # them); pub.dev's names are lower case with underscores (`firebase_messaging`)
        found = re.match(r"[A-Za-z0-9][\w.-]*", spec.strip())
        return found.group(0).lower() if found else ""
    if registry in ("go", "packagist"):
        name = re.split(r"[@:]", spec, maxsplit=1)[0].lower()
        return name if re.fullmatch(r"[\w.-]+(?:/[\w.-]+)+", name) else ""
    if (
        registry == "docker"
    ):  # `docker.io/library/nginx:1.25` -> `nginx`, `pyth0n/python`; another registry's: ""
        bare = spec.lower().removeprefix("docker.io/").removeprefix("library/")
        host, _, rest = bare.partition("/")
        if rest and ("." in host or ":" in host):  # another registry's (`ghcr.io/x/y`): its host is judged
            return f"{host.split(':')[0]}/{re.split(r'[@:]', rest, maxsplit=1)[0]}"
        name = re.split(r"[@:]", bare, maxsplit=1)[0]
        return name if re.fullmatch(r"[a-z0-9][a-z0-9._-]*(?:/[a-z0-9][a-z0-9._-]*)?", name) else ""
    match = _PYPI_NAME.match(spec)
    return re.sub(r"[._]+", "-", match.group(0)).lower() if match else ""


# Publishers of Terraform providers and modules every project uses: another account named like one of them
# (`hashicorp-community`, `terraform-aws-modulez`) poses as it
TERRAFORM_PUBLISHERS = (
    *("hashicorp", "terraform-aws-modules", "terraform-google-modules", "integrations", "cloudflare"),
)
# Providers' own namespaces on the registry (lower-cased, as sources are compared): an impostor takes one of
# these names with a word hung on it (`snowflake-labs-community`) or a letter or two changed
PROVIDER_PUBLISHERS = (
    *("snowflake-labs", "databricks", "datadog", "mongodb", "grafana", "confluentinc", "digitalocean"),
    *("okta", "auth0", "pagerduty", "newrelic", "vercel", "fastly", "heroku", "gitlabhq", "hetznercloud"),
    "linode",
    *("kreuzwerker", "elastic", "launchdarkly", "sumologic", "splunk", "oracle", "vmware", "supabase"),
)
_PROVIDER_DECORATIONS = ("community", "official", "oss", "org", "io", "hq", "inc", "dev", "tf", "terraform")


def imitated_publisher(owner: str) -> str:
    """The Terraform publisher an account's name poses as ("" for none or one of them)."""
    if owner in TERRAFORM_PUBLISHERS or owner in PROVIDER_PUBLISHERS:
        return ""
    decorated = next((p for p in TERRAFORM_PUBLISHERS if owner.startswith(p) or owner.endswith(p)), "")
    decorated = decorated or next(
        (
            p
            for p in PROVIDER_PUBLISHERS
            if any(owner in (f"{p}-{d}", f"{d}-{p}", f"{p}{d}") for d in _PROVIDER_DECORATIONS)
        ),
        "",
    )
    return decorated or imitates(owner, TERRAFORM_PUBLISHERS + PROVIDER_PUBLISHERS)


def replaces_popular(original: str, replacement: str) -> bool:
    """A well-known Go module (`golang.org/x/crypto`) replaced by a remote module under another path
    (`github.com/someone/crypto`): a local copy (`../crypto`) or the same path at another version is not."""
    old = re.sub(r"/v\d+$", "", original.split("@")[0].strip().lower())
    new = replacement.split("@")[0].strip().lower()
    if new.startswith((".", "/")) or re.sub(r"/v\d+$", "", new) == old:
        return False
    return old in POPULAR.get("go", frozenset())


def package_version(spec: str) -> str:
    """The exact version a requirement pins (`x==1.2`, `x@1.2`, `x:1.2`), or ""."""
    found = re.search(r"(?:==|(?<=[^@\s])@|:)\s*v?([\w.+-]+)$", spec.strip())
    return found.group(1) if found else ""


def known_malicious(registry: str, spec: str) -> bool:
    """The requirement names a release known to carry a payload (`event-stream@3.3.6`, `torchtriton`)."""
    name = package_name(registry, spec)
    versions = KNOWN_MALICIOUS.get((registry, name))
    if versions is None:
        return False
    return not versions or package_version(spec) in versions


# What an impostor hangs on a well-known owner's name (`boltdb-go` for `boltdb`, `go-gorilla` for `gorilla`)
_DECORATIONS = (
    *(
        "go",
        "golang",
        "dev",
        "io",
        "js",
        "hq",
        "org",
        "official",
        "lib",
        "pkg",
        "labs",
        "inc",
        "infra",
        "team",
    ),
    *("project", "foundation"),
)


def decorated(part: str, theirs: str) -> bool:
    """`boltdb-go` for `boltdb`, and a major version hung on any name (`jwt-v5` for `jwt`, whose real
    major versions are a path's last part: `golang-jwt/jwt/v5`)."""
    if re.fullmatch(rf"{re.escape(theirs)}[-_.]?v\d+", part):
        return True
    return len(theirs) >= 4 and any(
        part in (f"{theirs}-{d}", f"{theirs}{d}", f"{d}-{theirs}", f"{theirs}_{d}") for d in _DECORATIONS
    )


# --------------------------------------------------------------------------- the registries' own listings

# `training/registry_names.py` writes them: each registry's most downloaded names, most first, and npm's every
# name in use with its month's downloads (sorted by byte, bisected where it lies: some 227,000 lines)
_LISTED = frozenset({"npm", "pypi", "nuget"})
# A near miss of a top name that is used in its own right: at least this share of that name's downloads
_OWN_RIGHT = 1 / 1000


def _data_path(name: str) -> str:
    import os

    return os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", name)


@lru_cache(maxsize=4)
def _top(registry: str) -> tuple[str, ...]:
    """The registry's most downloaded names after the hand-kept ones, or those alone when none is shipped."""
    kept = tuple(sorted(POPULAR.get(registry, ())))
    if registry not in _LISTED:
        return kept
    try:
        with open(_data_path(f"registry-{registry}-top.txt"), encoding="utf-8") as handle:
            return (*kept, *(line.strip() for line in handle if line.strip()))
    except OSError:
        return kept  # a damaged install: the hand-kept names still judge


@lru_cache(maxsize=4)
def _top_set(registry: str) -> frozenset[str]:
    return frozenset(_top(registry))


@lru_cache(maxsize=1)
def _npm_downloads() -> mmap.mmap | bytes:
    """The npm listing, mapped (only the pages a bisection touches are read), or b"" when not shipped."""
    try:
        with open(_data_path("registry-npm-used.txt"), "rb") as handle:
            return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):  # (an empty file cannot be mapped)
        return b""


def _registry_key(registry: str, name: str) -> str:
    key = name.strip().lower()
    return re.sub(r"[-_.]+", "-", key) if registry == "pypi" else key


def _first_at(data: mmap.mmap | bytes, key: bytes) -> int:
    """Where the first line of the sorted listing whose name is at or after `key` starts (a bisection)."""
    low, high = 0, len(data)
    while low < high:
        middle = (low + high) // 2
        start = data.rfind(b"\n", 0, middle) + 1
        end = data.find(b"\n", start)
        if data[start : data.find(b"\t", start, end)] < key:
            low = end + 1
        else:
            high = start
    return low


def npm_downloads(name: str) -> int | None:
    """The npm package's downloads in a month by the shipped listing, None when it lists no such package
    (by bisection of the sorted lines `NAME<TAB>COUNT`, without loading them)."""
    data = _npm_downloads()
    key = name.strip().lower().encode()
    if not data or not key or b"\n" in key or b"\t" in key:
        return None
    low = _first_at(data, key)
    end = data.find(b"\n", low)
    found, _, count = data[low:end].partition(b"\t")
    return int(count) if found == key and count.isdigit() else None


def _listed_near(prefix: bytes, cut: int, length: int, limit: int) -> list[str]:
    """The names of the npm listing that start with `prefix`, whose part after `cut` bytes is within two
    letters of `length` long and which are downloaded `_IMITATED_DOWNLOADS` times a month or more: among
    the first `limit` names with that prefix (a bisection to the first, then the lines in order)."""
    data = _npm_downloads()
    if not data or not prefix:
        return []
    low = _first_at(data, prefix)
    found: list[str] = []
    for _ in range(limit):
        if low >= len(data):
            break
        end = data.find(b"\n", low)
        end = len(data) if end < 0 else end
        tab = data.find(b"\t", low, end)
        if tab < 0 or data[low : low + len(prefix)] != prefix:
            break
        if abs(tab - low - cut - length) <= 2:
            count = data[tab + 1 : end]
            if count.isdigit() and int(count) >= _IMITATED_DOWNLOADS:
                found.append(data[low:tab].decode("utf-8", "replace"))
        low = end + 1
    return found


# How many downloads a month make a name worth imitating, and how many neighbours a name is compared with
_IMITATED_DOWNLOADS = 10_000
_NEIGHBOURS = 2000


def imitated_in_scope(name: str) -> str:
    """The much-used npm package of the same scope an unused scoped name is a near miss of
    (`@nomicfoundation/hardhat-tolbox` beside `hardhat-toolbox`): the popular names `imitated` knows leave
    out most of a scope's packages. "" for none, an unscoped name, one the listing shows in use, or a
    name of fewer than five letters after its scope."""
    key = name.strip().lower()
    scope, _, bare = key.rpartition("/")
    if not key.startswith("@") or len(bare) < 5 or npm_downloads(key) is not None:
        return ""
    from limen.facts.hosts import within_edits

    prefix = f"{scope}/".encode()
    cut = len(prefix)
    for listed in _listed_near(prefix, cut, len(bare.encode()), _NEIGHBOURS):
        theirs = listed[cut:]
        if theirs != bare and within_edits(bare, theirs, 2 if len(theirs) >= 8 else 1):
            return listed
    return ""


def used(registry: str, name: str) -> bool:
    """The registry's users use `name`: a hand-kept or top name, or (npm) one its listing shows downloaded.
    False for a registry with no listing shipped and a name not kept by hand."""
    key = _registry_key(registry, name)
    if key in _top_set(registry):
        return True
    return registry == "npm" and npm_downloads(key) is not None


class _NearMisses:
    """Which of many names another is a near miss of (one edit, or two for names of eight letters or more),
    found without comparing it to every one: a name `k` edits away from a known one keeps one of that
    name's `k + 1` pieces whole, at most `k` places from where it was (the pigeonhole), so the pieces are
    indexed by where they start and only names sharing one there are compared. `names` come most used
    first."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.pieces: dict[tuple[str, int], list[str]] = {}
        self.sizes: set[int] = set()
        for name in names:
            if len(name) < 4:
                continue
            parts = 3 if len(name) >= 8 else 2
            size = len(name) // parts
            for i in range(parts):
                start = i * size
                piece = name[start : start + size] if i < parts - 1 else name[start:]
                self.pieces.setdefault((piece, start), []).append(name)
                self.sizes.add(len(piece))
        self.rank = {name: i for i, name in reversed(list(enumerate(names)))}

    def of(self, name: str) -> str:
        name = name.lower()
        if len(name) < 4 or name in self.rank:
            return ""
        scope = _scope(name)  # `@aws-cdk/x` is no slip for `@aws-sdk/x`: scopes are compared on their own
        seen: set[str] = set()
        best = ""
        for size in sorted(self.sizes, reverse=True):
            for at in range(len(name) - size + 1):
                piece = name[at : at + size]
                for start in range(max(at - 2, 0), at + 3):
                    for candidate in self.pieces.get((piece, start), ()):
                        limit = 2 if len(candidate) >= 8 else 1
                        if abs(at - start) > limit or candidate in seen or _scope(candidate) != scope:
                            continue
                        seen.add(candidate)
                        if (
                            within_edits(name, candidate, limit)
                            and _differs_by_a_slip(name, candidate)
                            and (not best or self.rank[candidate] < self.rank[best])
                        ):
                            best = candidate  # the most used of the names it is near
        return best


def _differs_by_a_slip(name: str, candidate: str) -> bool:
    """Past the words both names share at their start and end (`python-`, `-js`), what is left of each is
    close enough for a slip of the fingers: `python-hl7` is no slip for `python-hcl2` (`hl7` and `hcl2` are
    two edits apart in three letters), `python-dateutli` is one for `python-dateutil`; two edits need five
    letters left."""
    ours, theirs = re.split(r"[-_.]", name), re.split(r"[-_.]", candidate)
    lead = 0
    while lead < min(len(ours), len(theirs)) - 1 and ours[lead] == theirs[lead]:
        lead += 1
    trail = 0
    while trail < min(len(ours), len(theirs)) - lead - 1 and ours[-1 - trail] == theirs[-1 - trail]:
        trail += 1
    if not lead and not trail:
        return True  # (the whole names were compared already)
    rest, other = "-".join(ours[lead : len(ours) - trail]), "-".join(theirs[lead : len(theirs) - trail])
    shorter = min(len(rest), len(other))
    return within_edits(rest, other, 2 if shorter >= 5 else 1)


@lru_cache(maxsize=1)
def _top_scopes() -> frozenset[str]:
    return frozenset(_scope(name) for name in _top("npm") if name.startswith("@"))


def _scope(name: str) -> str:
    """An npm name's scope (`@babel` of `@babel/core`), "" for none."""
    return name.split("/", 1)[0] if name.startswith("@") else ""


@lru_cache(maxsize=8)
def _near_misses(registry: str) -> _NearMisses:
    return _NearMisses(_top(registry))


def imitated(registry: str, name: str) -> str:
    """The popular package `name` is a near miss of in `registry` ("" for none): a name of five letters or
    more for single names; for paths (`github.com/gorrila/mux`, `symfony/symfonny`), one of the same length
    whose every part is the same or a near miss of it."""
    known = POPULAR.get(registry, frozenset())
    if not name or name in known:
        return ""
    if registry == "github" or (registry == "go" and name.startswith("github.com/")):
        posed = posed_repository(re.sub(r"/v\d+$", "", name).removeprefix("github.com/"))
        if posed:
            return posed if registry == "github" else f"github.com/{posed}"
        owner, _, repo = name.removeprefix("github.com/").partition("/")
        if registry == "github" and (posed := imitated_owner(owner)):  # `nf-c0re/sarek`: the owner posed as
            return f"{posed}/{repo}"
    if "/" in name and registry in ("go", "packagist"):
        if registry == "go":  # `github.com/golang-jvvt/jwt/v5`: the module's major version aside
            name = re.sub(r"/v\d+$", "", name)
            if name in known:
                return ""
        parts = name.split("/")
        if registry == "go" and parts[0] in ("github.com", "gitlab.com", "bitbucket.org") and len(parts) > 3:
            parts = parts[:3]  # a command inside a module (`github.com/o/r/cmd/x`): the module is the owner's
            if "/".join(parts) in known:
                return ""
        for candidate in known:
            theirs = candidate.split("/")
            # the other parts the same, one part may be two edits away (`gorrila` for `gorilla`)
            if len(theirs) == len(parts) and all(
                p == t or (len(t) >= 5 and within_edits(p, t, 2)) or decorated(p, t)
                for p, t in zip(parts, theirs, strict=True)
            ):
                return candidate
        return ""
    if registry == "docker" and "/" in name and "." in name.split("/", 1)[0]:
        return imitates(name.split("/", 1)[0], IMAGE_REGISTRIES)  # `mcr.rnicrosoft.com/dotnet/sdk`
    if "/" in name and registry == "docker":
        # `pyth0n/python`, `1ibrary/nginx`: an official image's name under an account named like it
        owner, _, image = name.partition("/")
        if (
            image in known
            and owner != image
            and (
                within_edits(owner, image, 2)
                or within_edits(owner, "library", 2)
                or (len(image) >= 3 and (owner.startswith(image) or owner.endswith(image)))
            )
        ):  # `pyth0n/python`, `1ibrary/nginx`, `golang-alpine/golang`, `official-nginx/nginx`
            return image
        # `hexpmm/elixir`, `bitnamii/postgresql`: a well-known publisher's account, misspelt
        posed = imitates(owner, IMAGE_PUBLISHERS) if owner not in IMAGE_PUBLISHERS and len(owner) >= 4 else ""
        return f"{posed}/{image}" if posed else ""
    if registry == "maven":  # a group id, part by part: `com.fasterxmI.jackson.datatype`
        parts = name.split(".")
        for candidate in known:
            theirs = candidate.split(".")
            if len(theirs) == len(parts) and all(
                p == t or (len(t) >= 5 and within_edits(p, t, 2)) for p, t in zip(parts, theirs, strict=True)
            ):
                return candidate
        return ""
    if registry == "jsr" and "/" in name:  # `@sdt/dotenv`: a well-known scope misspelt, or a package's name
        scope, jsr_scopes = name.split("/", 1)[0], tuple(sorted({n.split("/", 1)[0] for n in known}))
        if scope not in jsr_scopes and (original := imitates(scope, jsr_scopes)):
            return f"{original}/{name.split('/', 1)[1]}"
        return imitates(name, known) if scope in jsr_scopes else ""
    if registry == "npm" and name.startswith("@") and "/" in name:  # `@angualr/cdk`: a scope named like one
        scope, scopes = _scope(name), _top_scopes()
        if scope not in scopes and (original := imitates(scope, scopes)):
            posed = f"{original}/{name.split('/', 1)[1]}"
            return "" if _in_own_right(name.lower(), posed) else posed
    if len(name) < 5:
        return ""
    if registry not in _LISTED:
        return imitates(name, known)
    key = _registry_key(registry, name)
    if key in _top_set(registry):
        return ""
    original = _near_misses(registry).of(key)
    return "" if registry == "npm" and original and _in_own_right(key, original) else original


def posed_repository(name: str) -> str:
    """The well-known GitHub repository (`GITHUB`) that `OWNER/REPO` poses as ("" for none): one of the same
    name under an owner named like its own (`OpenZepelin`, `foundry-rs-dev`), or under any other owner when
    the name carries its owner's (`0xS3cur1ty/openzeppelin-contracts`, `someone/aws-sdk-go`): a copy
    published under the maker's brand. A fork with a name of its own, or of a name that does not carry its
    maker's (`someone/mux`), is not."""
    owner, _, repo = name.lower().partition("/")
    if not repo or "/" in repo:
        return ""
    for candidate in GITHUB:
        theirs, _, their_repo = candidate.partition("/")
        if repo != their_repo or owner == theirs:
            continue
        branded = len(theirs) >= 3 and theirs.replace("-", "") in repo.replace("-", "").replace("_", "")
        if branded or (len(theirs) >= 5 and within_edits(owner, theirs, 2)) or decorated(owner, theirs):
            return candidate
    return ""


def _in_own_right(name: str, original: str) -> bool:
    """The npm package is used in its own right beside the one it is near (`preact` beside `react`), not
    collecting the slips of fingers (`expresss`): listed, with a thousandth of that one's downloads or
    more, or listed when that one is not."""
    ours = npm_downloads(name)
    theirs = npm_downloads(original)
    return ours is not None and (theirs is None or ours >= theirs * _OWN_RIGHT)


def initializer_package(name: str) -> str:
    """The package a project initializer runs (`npm create vite` / `npm init vite@5`: `create-vite`, `@scope`:
    `@scope/create`, `@scope/app`: `@scope/create-app`), as npm, pnpm, yarn and bun name it; "" for a path,
    an address or a repository (`bun create user/repo`)."""
    if name.startswith(("@",)) and "/" in name:
        scope, _, rest = name.partition("/")
        return f"{scope}/create-{rest}"
    if name.startswith("@"):
        return f"{name}/create"
    if "/" in name or ":" in name or name.startswith((".", "~")):
        return ""
    return f"create-{name}"
