# posviz: a public instance. Build: docker build -t posviz .   Run: docker run -p 8501:8501 posviz
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1

# CPU-only torch first (PyPI's default Linux wheel is the multi-GB CUDA build), then the rest.
ARG TORCH_INDEX=https://download.pytorch.org/whl/cpu
COPY requirements.txt /tmp/requirements.txt
RUN pip install --index-url "$TORCH_INDEX" torch==2.13.0 \
 && pip install -r /tmp/requirements.txt

RUN useradd --create-home --uid 1000 posviz
WORKDIR /home/posviz/app
COPY --chown=posviz:posviz app.py ./
COPY --chown=posviz:posviz app_pages ./app_pages
COPY --chown=posviz:posviz posviz ./posviz
COPY --chown=posviz:posviz .streamlit ./.streamlit
COPY --chown=posviz:posviz deploy/warm.py deploy/serve.py ./deploy/
USER posviz

EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=40s --retries=3 \
  CMD python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4).read().strip() == b'ok' else 1)"

# streamlit run app.py on 0.0.0.0:8501, then every page and scene once (deploy/warm.py); /tmp/posviz.warm marks it ready
CMD ["python", "-m", "deploy.serve"]
